import { Injectable } from '@nestjs/common';
import { InjectEntityManager } from '@nestjs/typeorm';
import { In, LessThan, type EntityManager } from 'typeorm';
import { WebhookAttempt } from '../entities/webhook-attempt.entity.js';

export type NewWebhookAttempt = Omit<WebhookAttempt, 'id'>;

/** The log of tries at sending each delivery; methods given a manager run in its transaction. */
@Injectable()
export class WebhookAttemptsRepository {
  constructor(@InjectEntityManager() private readonly db: EntityManager) {}

  async insert(attempt: NewWebhookAttempt, manager: EntityManager = this.db): Promise<void> {
    await manager.insert(WebhookAttempt, attempt);
  }

  /** Many attempts in one statement. */
  async insertMany(attempts: readonly NewWebhookAttempt[], manager: EntityManager = this.db): Promise<void> {
    if (attempts.length > 0) await manager.insert(WebhookAttempt, [...attempts]);
  }

  /** The attempts at these deliveries, oldest first. */
  ofDeliveries(deliveryIds: readonly number[], manager: EntityManager = this.db): Promise<WebhookAttempt[]> {
    if (deliveryIds.length === 0) return Promise.resolve([]);
    return manager.find(WebhookAttempt, { where: { deliveryId: In([...deliveryIds]) }, order: { id: 'ASC' } });
  }

  async deleteAttemptedBefore(before: number, manager: EntityManager = this.db): Promise<void> {
    await manager.delete(WebhookAttempt, { attemptedAt: LessThan(before) });
  }
}
