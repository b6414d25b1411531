import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { Transaction } from '@file-fields/nest';
import type { WebhookEndpoint } from '../entities/webhook-endpoint.entity.js';
import { WebhookDispatcher } from '../delivery/webhook-dispatcher.js';
import { endpointSubjectOf, WebhookEventCatalog } from './webhook-event-catalog.js';
import { WebhookEventWriter } from './webhook-event-writer.js';

/** Sent to one endpoint on demand, to check that it receives and verifies deliveries. */
export const PING_EVENT = 'webhook.ping';

/**
 * The outbox. An event is written in the transaction of the change that caused it, with one delivery per subscribed
 * endpoint: a change that commits always has its event, a rollback never does, and a crash loses nothing.
 */
@Injectable()
export class WebhookEvents {
  constructor(
    private readonly dispatcher: WebhookDispatcher,
    private readonly writer: WebhookEventWriter,
    catalog: WebhookEventCatalog,
  ) {
    catalog.register([
      {
        kind: PING_EVENT,
        description:
          'A test event, sent to one webhook only, when someone asks for it (Send ping), or to probe a disabled ' +
          'webhook that recovers by itself.',
        subscribable: false,
        subjectOf: endpointSubjectOf,
        dataSchema: {
          type: 'object',
          required: ['endpoint_id'],
          properties: {
            endpoint_id: { type: 'integer', description: 'The endpoint pinged' },
            probe: {
              type: 'boolean',
              description:
                'Present (true) when the service checks whether a disabled endpoint with auto_recover answers again',
            },
          },
        },
      },
    ]);
  }

  /** Records an event in `tx`; the dispatcher is woken once it commits. */
  async record(
    tx: Pick<Transaction, 'manager' | 'afterCommit'>,
    kind: string,
    data: Record<string, unknown>,
  ): Promise<void> {
    await this.write(tx.manager, kind, data);
    tx.afterCommit(() => Promise.resolve(this.dispatcher.wake()));
  }

  /** Records an event where no commit hook is at hand (the poll picks it up); `only` sends it to that endpoint alone. */
  write(manager: EntityManager, kind: string, data: Record<string, unknown>, only?: WebhookEndpoint): Promise<string> {
    return this.writer.write(manager, kind, data, { only });
  }
}
