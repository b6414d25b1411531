import { Injectable } from '@nestjs/common';
import { FILE_EVENT_KINDS, FileEventPublisher, type FileEvent, type FileEventTransaction } from '../files/index.js';
import { WebhookEventCatalog } from './webhook-event-catalog.js';
import { WebhookEvents } from './webhook-events.service.js';

/** The files module's event port, implemented by the outbox: every file change becomes a webhook event. */
@Injectable()
export class WebhookFileEvents extends FileEventPublisher {
  constructor(
    private readonly events: WebhookEvents,
    catalog: WebhookEventCatalog,
  ) {
    super();
    catalog.register(FILE_EVENT_KINDS);
  }

  async publish(tx: FileEventTransaction, event: FileEvent): Promise<void> {
    if (tx.afterCommit) {
      const afterCommit = tx.afterCommit.bind(tx);
      await this.events.record({ manager: tx.manager, afterCommit }, event.kind, event.data);
    } else await this.events.write(tx.manager, event.kind, event.data);
  }
}
