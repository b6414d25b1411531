import { Injectable } from '@nestjs/common';
import { InjectEntityManager } from '@nestjs/typeorm';
import type { EntityManager } from 'typeorm';
import { SecretBox } from '../../secrets/index.js';
import { WebhookEndpoint } from '../entities/webhook-endpoint.entity.js';

export type NewWebhookEndpoint = Pick<WebhookEndpoint, 'url' | 'events' | 'description' | 'secret' | 'active'>;

/**
 * What the signing secrets are bound to when sealed. Not the endpoint id: it does not exist yet when the row is
 * inserted, and the current secret moves to `previous_secret` on rotation.
 */
export const WEBHOOK_SECRET_CONTEXT = 'webhook_endpoints.secret';

/**
 * Registered endpoints and their health; methods given a manager run in its transaction. The signing secrets are
 * sealed with the {@link SecretBox} in the database and plain in the entities returned.
 */
@Injectable()
export class WebhookEndpointsRepository {
  constructor(
    @InjectEntityManager() private readonly db: EntityManager,
    private readonly box: SecretBox,
  ) {}

  async list(manager: EntityManager = this.db): Promise<WebhookEndpoint[]> {
    const endpoints = await manager.find(WebhookEndpoint, { order: { id: 'ASC' } });
    return endpoints.map((endpoint) => this.opened(endpoint));
  }

  async findById(id: number, manager: EntityManager = this.db): Promise<WebhookEndpoint | null> {
    const endpoint = await manager.findOneBy(WebhookEndpoint, { id });
    return endpoint && this.opened(endpoint);
  }

  async create(endpoint: NewWebhookEndpoint, manager: EntityManager = this.db): Promise<WebhookEndpoint> {
    const saved = await manager.save(manager.create(WebhookEndpoint, { ...endpoint, ...this.sealed(endpoint) }));
    return Object.assign(saved, { secret: endpoint.secret, previousSecret: null });
  }

  /** Writes the endpoint (secrets sealed); the given entity is updated as TypeORM's save would, and returned. */
  async save(endpoint: WebhookEndpoint, manager: EntityManager = this.db): Promise<WebhookEndpoint> {
    const { secret, previousSecret } = endpoint;
    const saved = await manager.save(manager.create(WebhookEndpoint, { ...endpoint, ...this.sealed(endpoint) }));
    return Object.assign(endpoint, saved, { secret, previousSecret });
  }

  async delete(id: number, manager: EntityManager = this.db): Promise<void> {
    await manager.delete(WebhookEndpoint, { id });
  }

  /** A delivery succeeded: the endpoint is no longer failing. */
  async markHealthy(id: number, manager: EntityManager = this.db): Promise<void> {
    await manager.update(WebhookEndpoint, { id }, { failingSince: null });
  }

  /** Deliveries have failed since `failingSince`; with a reason, the endpoint is disabled too. */
  async markFailing(
    id: number,
    failingSince: number,
    disabledReason?: string,
    manager: EntityManager = this.db,
  ): Promise<void> {
    const disable = disabledReason === undefined ? {} : { active: false, disabledReason };
    await manager.update(WebhookEndpoint, { id }, { failingSince, ...disable });
  }

  private sealed(endpoint: Pick<WebhookEndpoint, 'secret'> & Partial<Pick<WebhookEndpoint, 'previousSecret'>>) {
    const { secret, previousSecret } = endpoint;
    return {
      secret: this.box.seal(secret, WEBHOOK_SECRET_CONTEXT),
      previousSecret: previousSecret == null ? previousSecret : this.box.seal(previousSecret, WEBHOOK_SECRET_CONTEXT),
    };
  }

  private opened(endpoint: WebhookEndpoint): WebhookEndpoint {
    endpoint.secret = this.box.open(endpoint.secret, WEBHOOK_SECRET_CONTEXT);
    if (endpoint.previousSecret !== null)
      endpoint.previousSecret = this.box.open(endpoint.previousSecret, WEBHOOK_SECRET_CONTEXT);
    return endpoint;
  }
}
