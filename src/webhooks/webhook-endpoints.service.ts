import { Injectable } from '@nestjs/common';
import { InjectEntityManager } from '@nestjs/typeorm';
import { In, type EntityManager } from 'typeorm';
import { Clock } from '../common/clock.js';
import { AppConfig } from '../config/environment.js';
import { UnitOfWork } from '../database/unit-of-work.js';
import { randomToken } from '../token/crypto/secrets.js';
import { WebhookAttempt } from './entities/webhook-attempt.entity.js';
import { WebhookDelivery, type DeliveryStatus } from './entities/webhook-delivery.entity.js';
import { WebhookEndpoint } from './entities/webhook-endpoint.entity.js';
import { WebhookDispatcher } from './webhook-dispatcher.js';
import { WebhookEvents } from './webhook-events.service.js';
import { WebhookUrlPolicy } from './webhook-url-policy.js';
import type { CreateWebhookDto, UpdateWebhookDto } from './webhooks.dto.js';
import { WebhooksError, WebhooksErrorCode } from './webhooks.errors.js';

const newSecret = () => `whsec_${randomToken(32)}`;

/** Registration of endpoints, secret rotation, pings, and the delivery log. */
@Injectable()
export class WebhookEndpointsService {
  constructor(
    @InjectEntityManager() private readonly manager: EntityManager,
    private readonly unitOfWork: UnitOfWork,
    private readonly urls: WebhookUrlPolicy,
    private readonly events: WebhookEvents,
    private readonly dispatcher: WebhookDispatcher,
    private readonly config: AppConfig,
    private readonly clock: Clock,
  ) {}

  list(): Promise<WebhookEndpoint[]> {
    return this.manager.find(WebhookEndpoint, { order: { id: 'ASC' } });
  }

  get(id: number): Promise<WebhookEndpoint> {
    return this.found(this.manager, id);
  }

  async create(input: CreateWebhookDto): Promise<WebhookEndpoint> {
    await this.urls.assertAllowed(input.url);
    const endpoint = this.manager.create(WebhookEndpoint, {
      url: input.url,
      events: [...new Set(input.events)],
      description: input.description ?? null,
      secret: newSecret(),
      active: true,
    });
    return this.unitOfWork.run(({ manager }) => manager.save(endpoint));
  }

  async update(id: number, input: UpdateWebhookDto): Promise<WebhookEndpoint> {
    if (input.url !== undefined) await this.urls.assertAllowed(input.url);
    return this.unitOfWork.run(async ({ manager }) => {
      const endpoint = await this.found(manager, id);
      if (input.url !== undefined) endpoint.url = input.url;
      if (input.events !== undefined) endpoint.events = [...new Set(input.events)];
      if (input.description !== undefined) endpoint.description = input.description;
      if (input.active !== undefined)
        Object.assign(endpoint, { active: input.active, disabledReason: null, failingSince: null });
      return manager.save(endpoint);
    });
  }

  async remove(id: number): Promise<void> {
    await this.unitOfWork.run(async ({ manager }) => {
      await this.found(manager, id);
      await manager.delete(WebhookEndpoint, { id });
    });
  }

  /** A new secret; deliveries are signed with both for WEBHOOK_SECRET_GRACE. */
  rotateSecret(id: number): Promise<WebhookEndpoint> {
    return this.unitOfWork.run(async ({ manager }) => {
      const endpoint = await this.found(manager, id);
      endpoint.previousSecret = endpoint.secret;
      endpoint.previousSecretExpiresAt = this.clock.nowMs() + this.config.webhooks.secretGraceMs;
      endpoint.secret = newSecret();
      return manager.save(endpoint);
    });
  }

  /** Queues a webhook.ping to this endpoint alone. */
  async ping(id: number): Promise<{ event_id: string }> {
    const eventId = await this.unitOfWork.run(async ({ manager }) => {
      const endpoint = await this.found(manager, id);
      return this.events.write(manager, 'webhook.ping', { endpoint_id: endpoint.id }, endpoint);
    });
    this.dispatcher.wake();
    return { event_id: eventId };
  }

  async deliveries(id: number, status: DeliveryStatus | undefined, limit: number, offset: number) {
    await this.get(id);
    const where = { endpointId: id, ...(status ? { status } : {}) };
    const [items, total] = await this.manager.findAndCount(WebhookDelivery, {
      where,
      order: { id: 'DESC' },
      take: limit,
      skip: offset,
    });
    const attempts = items.length
      ? await this.manager.find(WebhookAttempt, {
          where: { deliveryId: In(items.map((d) => d.id)) },
          order: { id: 'ASC' },
        })
      : [];
    return {
      items: items.map((delivery) => ({ delivery, attempts: attempts.filter((a) => a.deliveryId === delivery.id) })),
      total,
      limit,
      offset,
    };
  }

  /** One new attempt now, with the same event id, whatever the state of the delivery or the endpoint. */
  async redeliver(id: number, deliveryId: number): Promise<WebhookDelivery> {
    const delivery = await this.manager.findOneBy(WebhookDelivery, { id: deliveryId, endpointId: id });
    if (!delivery)
      throw new WebhooksError(WebhooksErrorCode.DeliveryNotFound, `Webhook ${id} has no delivery ${deliveryId}.`);
    await this.dispatcher.sendNow(deliveryId);
    return this.manager.findOneByOrFail(WebhookDelivery, { id: deliveryId });
  }

  private async found(manager: EntityManager, id: number): Promise<WebhookEndpoint> {
    const endpoint = await manager.findOneBy(WebhookEndpoint, { id });
    if (!endpoint) throw new WebhooksError(WebhooksErrorCode.EndpointNotFound, `Webhook ${id} does not exist.`);
    return endpoint;
  }
}
