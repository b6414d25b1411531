import { Injectable } from '@nestjs/common';
import { InjectEntityManager } from '@nestjs/typeorm';
import { In, type EntityManager } from 'typeorm';
import { WebhookEvent } from '../entities/webhook-event.entity.js';

/** The outbox's events; methods given a manager run in its transaction. */
@Injectable()
export class WebhookEventsRepository {
  constructor(@InjectEntityManager() private readonly db: EntityManager) {}

  async insert(event: WebhookEvent, manager: EntityManager = this.db): Promise<void> {
    await manager.save(manager.create(WebhookEvent, event));
  }

  findById(id: string, manager: EntityManager = this.db): Promise<WebhookEvent | null> {
    return manager.findOneBy(WebhookEvent, { id });
  }

  /** Removes the events made before `before` that no delivery refers to any more. */
  async deleteUnreferencedBefore(before: number, manager: EntityManager = this.db): Promise<void> {
    await manager
      .createQueryBuilder()
      .delete()
      .from(WebhookEvent)
      .where('created_at < :before', { before })
      .andWhere('id NOT IN (SELECT event_id FROM webhook_deliveries)')
      .execute();
  }

  /** The events with these ids (in no particular order), in one query. */
  findByIds(ids: readonly string[], manager: EntityManager = this.db): Promise<WebhookEvent[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return manager.findBy(WebhookEvent, { id: In([...new Set(ids)]) });
  }
}
