import { Inject, Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import { Clock } from '../common/clock.js';
import { UnitOfWork } from '../database/unit-of-work.js';
import type { DeliveryStatus, WebhookDelivery } from './entities/webhook-delivery.entity.js';
import type { WebhookEndpoint } from './entities/webhook-endpoint.entity.js';
import { WebhookAttemptsRepository } from './repositories/webhook-attempts.repository.js';
import { WebhookDeliveriesRepository } from './repositories/webhook-deliveries.repository.js';
import { WebhookEndpointsRepository } from './repositories/webhook-endpoints.repository.js';
import { WebhookDispatcher } from './webhook-dispatcher.js';
import { WebhookEventCatalog } from './webhook-event-catalog.js';
import { PING_EVENT, WebhookEvents } from './webhook-events.service.js';
import { WebhookUrlPolicy } from './webhook-url-policy.js';
import { webhooksConfig, type WebhooksConfig } from './webhooks.config.js';
import type { CreateWebhookDto, UpdateWebhookDto } from './webhooks.dto.js';
import { WebhooksError, WebhooksErrorCode } from './webhooks.errors.js';

/** 256 random bits, base64url: the form of every secret this service hands out. */
const newSecret = () => `whsec_${randomBytes(32).toString('base64url')}`;

/** Registration of endpoints, secret rotation, pings, and the delivery log. */
@Injectable()
export class WebhookEndpointsService {
  constructor(
    private readonly endpoints: WebhookEndpointsRepository,
    private readonly deliveryRows: WebhookDeliveriesRepository,
    private readonly attempts: WebhookAttemptsRepository,
    private readonly unitOfWork: UnitOfWork,
    private readonly urls: WebhookUrlPolicy,
    private readonly events: WebhookEvents,
    private readonly catalog: WebhookEventCatalog,
    private readonly dispatcher: WebhookDispatcher,
    @Inject(webhooksConfig.KEY) private readonly config: WebhooksConfig,
    private readonly clock: Clock,
  ) {}

  list(): Promise<WebhookEndpoint[]> {
    return this.endpoints.list();
  }

  get(id: number): Promise<WebhookEndpoint> {
    return this.found(id);
  }

  async create(input: CreateWebhookDto): Promise<WebhookEndpoint> {
    this.catalog.assertSubscribable(input.events);
    await this.urls.assertAllowed(input.url);
    const endpoint = {
      url: input.url,
      events: [...new Set(input.events)],
      description: input.description ?? null,
      secret: newSecret(),
      active: true,
    };
    return this.unitOfWork.run(({ manager }) => this.endpoints.create(endpoint, manager));
  }

  async update(id: number, input: UpdateWebhookDto): Promise<WebhookEndpoint> {
    if (input.events !== undefined) this.catalog.assertSubscribable(input.events);
    if (input.url !== undefined) await this.urls.assertAllowed(input.url);
    const saved = await this.unitOfWork.run(async ({ manager }) => {
      const endpoint = await this.found(id, manager);
      if (input.url !== undefined) endpoint.url = input.url;
      if (input.events !== undefined) endpoint.events = [...new Set(input.events)];
      if (input.description !== undefined) endpoint.description = input.description;
      if (input.active !== undefined)
        Object.assign(endpoint, { active: input.active, disabledReason: null, failingSince: null });
      return this.endpoints.save(endpoint, manager);
    });
    this.dispatcher.endpointChanged(saved);
    return saved;
  }

  async remove(id: number): Promise<void> {
    await this.unitOfWork.run(async ({ manager }) => {
      await this.found(id, manager);
      await this.endpoints.delete(id, manager);
    });
    this.dispatcher.endpointChanged({ id, removed: true });
  }

  /** A new secret; deliveries are signed with both for WEBHOOK_SECRET_GRACE. */
  async rotateSecret(id: number): Promise<WebhookEndpoint> {
    const saved = await this.unitOfWork.run(async ({ manager }) => {
      const endpoint = await this.found(id, manager);
      endpoint.previousSecret = endpoint.secret;
      endpoint.previousSecretExpiresAt = this.clock.nowMs() + this.config.secretGraceMs;
      endpoint.secret = newSecret();
      return this.endpoints.save(endpoint, manager);
    });
    this.dispatcher.endpointChanged(saved);
    return saved;
  }

  /** Queues a webhook.ping to this endpoint alone. */
  async ping(id: number): Promise<{ event_id: string }> {
    const eventId = await this.unitOfWork.run(async ({ manager }) => {
      const endpoint = await this.found(id, manager);
      return this.events.write(manager, PING_EVENT, { endpoint_id: endpoint.id }, endpoint);
    });
    this.dispatcher.wake();
    return { event_id: eventId };
  }

  async deliveries(id: number, status: DeliveryStatus | undefined, limit: number, offset: number) {
    await this.found(id);
    const [items, total] = await this.deliveryRows.pageOfEndpoint(id, { status, limit, offset });
    const attempts = await this.attempts.ofDeliveries(items.map((delivery) => delivery.id));
    return {
      items: items.map((delivery) => ({ delivery, attempts: attempts.filter((a) => a.deliveryId === delivery.id) })),
      total,
      limit,
      offset,
    };
  }

  /** One new attempt now, with the same event id, whatever the state of the delivery or the endpoint. */
  async redeliver(id: number, deliveryId: number): Promise<WebhookDelivery> {
    await this.deliveryOf(id, deliveryId);
    await this.dispatcher.sendNow(deliveryId);
    return this.deliveryOf(id, deliveryId);
  }

  private async deliveryOf(id: number, deliveryId: number): Promise<WebhookDelivery> {
    const delivery = await this.deliveryRows.findOfEndpoint(id, deliveryId);
    if (!delivery)
      throw new WebhooksError(WebhooksErrorCode.DeliveryNotFound, `Webhook ${id} has no delivery ${deliveryId}.`);
    return delivery;
  }

  private async found(id: number, manager?: EntityManager): Promise<WebhookEndpoint> {
    const endpoint = await this.endpoints.findById(id, manager);
    if (!endpoint) throw new WebhooksError(WebhooksErrorCode.EndpointNotFound, `Webhook ${id} does not exist.`);
    return endpoint;
  }
}
