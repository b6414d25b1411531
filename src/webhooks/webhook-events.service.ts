import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import { Clock } from '../common/clock.js';
import type { Transaction } from '../database/unit-of-work.js';
import type { WebhookEndpoint } from './entities/webhook-endpoint.entity.js';
import { WebhookDeliveriesRepository } from './repositories/webhook-deliveries.repository.js';
import { WebhookEndpointsRepository } from './repositories/webhook-endpoints.repository.js';
import { WebhookEventsRepository } from './repositories/webhook-events.repository.js';
import { WebhookDispatcher } from './webhook-dispatcher.js';
import { ALL_EVENTS, WebhookEventCatalog } from './webhook-event-catalog.js';

/** Sent to one endpoint on demand, to check that it receives and verifies deliveries. */
export const PING_EVENT = 'webhook.ping';

/**
 * The outbox. An event is written in the transaction of the change that caused it, with one delivery per subscribed
 * endpoint: a change that commits always has its event, a rollback never does, and a crash loses nothing.
 */
@Injectable()
export class WebhookEvents {
  constructor(
    private readonly clock: Clock,
    private readonly dispatcher: WebhookDispatcher,
    private readonly catalog: WebhookEventCatalog,
    private readonly eventRows: WebhookEventsRepository,
    private readonly endpoints: WebhookEndpointsRepository,
    private readonly deliveries: WebhookDeliveriesRepository,
  ) {
    catalog.register([PING_EVENT], { subscribable: false });
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
  async write(
    manager: EntityManager,
    kind: string,
    data: Record<string, unknown>,
    only?: WebhookEndpoint,
  ): Promise<string> {
    // An unregistered kind could never be subscribed to: the publisher forgot to register it.
    if (!this.catalog.has(kind)) throw new Error(`Webhook event kind ${kind} is not registered`);
    const now = this.clock.nowMs();
    const id = `evt_${randomUUID().replace(/-/g, '')}`;
    await this.eventRows.insert({ id, kind, data, createdAt: now }, manager);
    const recipients = only
      ? [only]
      : (await this.endpoints.list(manager)).filter(
          (endpoint) => endpoint.events.includes(ALL_EVENTS) || endpoint.events.includes(kind),
        );
    const deliveries = recipients.map((endpoint) => ({
      eventId: id,
      endpointId: endpoint.id,
      // A disabled endpoint's deliveries are kept as skipped: nothing is dropped, all can be redelivered.
      status: endpoint.active ? ('pending' as const) : ('skipped' as const),
      attempts: 0,
      nextAttemptAt: now,
      createdAt: now,
    }));
    await this.deliveries.insertMany(deliveries, manager);
    return id;
  }
}
