import { Injectable } from '@nestjs/common';
import { InjectEntityManager } from '@nestjs/typeorm';
import type { EntityManager } from 'typeorm';
import { WebhookEndpoint } from '../entities/webhook-endpoint.entity.js';

export type NewWebhookEndpoint = Pick<WebhookEndpoint, 'url' | 'events' | 'description' | 'secret' | 'active'>;

/** Registered endpoints and their health; methods given a manager run in its transaction. */
@Injectable()
export class WebhookEndpointsRepository {
  constructor(@InjectEntityManager() private readonly db: EntityManager) {}

  list(manager: EntityManager = this.db): Promise<WebhookEndpoint[]> {
    return manager.find(WebhookEndpoint, { order: { id: 'ASC' } });
  }

  findById(id: number, manager: EntityManager = this.db): Promise<WebhookEndpoint | null> {
    return manager.findOneBy(WebhookEndpoint, { id });
  }

  create(endpoint: NewWebhookEndpoint, manager: EntityManager = this.db): Promise<WebhookEndpoint> {
    return manager.save(manager.create(WebhookEndpoint, endpoint));
  }

  save(endpoint: WebhookEndpoint, manager: EntityManager = this.db): Promise<WebhookEndpoint> {
    return manager.save(endpoint);
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
}
