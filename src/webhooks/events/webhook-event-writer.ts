import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import { grants, Clock } from '@file-fields/nest';
import type { WebhookEndpoint } from '../entities/webhook-endpoint.entity.js';
import { WebhookDeliveriesRepository } from '../repositories/webhook-deliveries.repository.js';
import { WebhookEndpointsRepository } from '../repositories/webhook-endpoints.repository.js';
import { WebhookEventsRepository } from '../repositories/webhook-events.repository.js';
import { creatorScopesOf, receivesEvent } from '../endpoints/webhook-endpoint-filter.js';
import { WebhookEventCatalog } from './webhook-event-catalog.js';

/** Who gets an event instead of every endpoint that subscribes to it: one endpoint alone, or all but one. */
export interface WebhookRecipients {
  /** Only this endpoint, whatever it subscribes to (a ping). */
  only?: WebhookEndpoint;
  /** Not this endpoint (the one a webhook.endpoint.disabled is about). */
  except?: number;
}

/**
 * Writes an event and its deliveries in the caller's transaction: one per endpoint that subscribes to its kind, whose
 * filter lets it through, and whose creator's token scope grants the event's permission, decided now, when the event
 * is fanned out (the creator's role is checked again when it is sent). Knows nothing of the dispatcher, so the
 * parts the dispatcher itself uses (endpoint health) can write events too.
 */
@Injectable()
export class WebhookEventWriter {
  constructor(
    private readonly clock: Clock,
    private readonly catalog: WebhookEventCatalog,
    private readonly eventRows: WebhookEventsRepository,
    private readonly endpoints: WebhookEndpointsRepository,
    private readonly deliveries: WebhookDeliveriesRepository,
  ) {}

  async write(
    manager: EntityManager,
    kind: string,
    data: Record<string, unknown>,
    recipients: WebhookRecipients = {},
  ): Promise<string> {
    // An unregistered kind could never be subscribed to: the publisher forgot to register it.
    if (!this.catalog.has(kind)) throw new Error(`Webhook event kind ${kind} is not registered`);
    const now = this.clock.nowMs();
    const id = `evt_${randomUUID().replace(/-/g, '')}`;
    await this.eventRows.insert({ id, kind, data, createdAt: now }, manager);
    const attachmentType = this.catalog.attachmentTypeOf(kind, data);
    const permission = this.catalog.permissionOf(kind, data);
    const orderingKey = this.catalog.subjectOf(kind, data)?.key ?? null;
    const candidates = recipients.only
      ? [recipients.only]
      : (await this.endpoints.list(manager)).filter(
          (endpoint) => endpoint.id !== recipients.except && receivesEvent(endpoint, kind, attachmentType),
        );
    const endpoints = candidates.filter(
      (endpoint) => permission === undefined || grants(creatorScopesOf(endpoint), permission),
    );
    const deliveries = endpoints.map((endpoint) => ({
      eventId: id,
      endpointId: endpoint.id,
      // A disabled endpoint's deliveries are kept as skipped: nothing is dropped, all can be redelivered.
      status: endpoint.active ? ('pending' as const) : ('skipped' as const),
      orderingKey: endpoint.ordering === 'per-entity' ? orderingKey : null,
      attempts: 0,
      nextAttemptAt: now,
      createdAt: now,
    }));
    await this.deliveries.insertMany(deliveries, manager);
    return id;
  }
}
