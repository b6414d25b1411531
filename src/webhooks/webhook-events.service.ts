import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import { Clock } from '../common/clock.js';
import type { Transaction } from '../database/unit-of-work.js';
import { WebhookDelivery } from './entities/webhook-delivery.entity.js';
import { WebhookEndpoint } from './entities/webhook-endpoint.entity.js';
import { WebhookEvent } from './entities/webhook-event.entity.js';
import { WebhookDispatcher } from './webhook-dispatcher.js';

export const EVENT_KINDS = ['file.created', 'file.updated', 'file.deleted', 'file.reordered', 'webhook.ping'] as const;
export type EventKind = (typeof EVENT_KINDS)[number];

/**
 * The outbox. An event is written in the transaction of the change that caused it, with one delivery per subscribed
 * endpoint: a change that commits always has its event, a rollback never does, and a crash loses nothing.
 */
@Injectable()
export class WebhookEvents {
  constructor(
    private readonly clock: Clock,
    private readonly dispatcher: WebhookDispatcher,
  ) {}

  /** Records an event in `tx`; the dispatcher is woken once it commits. */
  async record(
    tx: Pick<Transaction, 'manager' | 'afterCommit'>,
    kind: EventKind,
    data: Record<string, unknown>,
  ): Promise<void> {
    await this.write(tx.manager, kind, data);
    tx.afterCommit(() => Promise.resolve(this.dispatcher.wake()));
  }

  /** Records an event where no commit hook is at hand (the poll picks it up). */
  async write(
    manager: EntityManager,
    kind: EventKind,
    data: Record<string, unknown>,
    only?: WebhookEndpoint,
  ): Promise<string> {
    const now = this.clock.nowMs();
    const event = manager.create(WebhookEvent, {
      id: `evt_${randomUUID().replace(/-/g, '')}`,
      kind,
      data,
      createdAt: now,
    });
    await manager.save(event);
    const endpoints = only ? [only] : await manager.find(WebhookEndpoint);
    const deliveries = endpoints
      .filter((endpoint) => endpoint.events.includes('*') || endpoint.events.includes(kind) || only)
      .map((endpoint) =>
        manager.create(WebhookDelivery, {
          eventId: event.id,
          endpointId: endpoint.id,
          // A disabled endpoint's deliveries are kept as skipped: nothing is dropped, all can be redelivered.
          status: endpoint.active ? 'pending' : 'skipped',
          attempts: 0,
          nextAttemptAt: now,
          createdAt: now,
        }),
      );
    if (deliveries.length > 0) await manager.insert(WebhookDelivery, deliveries);
    return event.id;
  }
}
