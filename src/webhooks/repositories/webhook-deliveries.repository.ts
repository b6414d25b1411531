import { Injectable } from '@nestjs/common';
import { InjectEntityManager } from '@nestjs/typeorm';
import { In, type EntityManager } from 'typeorm';
import type { Transaction } from '../../database/unit-of-work.js';
import { WebhookDelivery, type DeliveryStatus } from '../entities/webhook-delivery.entity.js';

export type NewWebhookDelivery = Pick<
  WebhookDelivery,
  'eventId' | 'endpointId' | 'status' | 'attempts' | 'nextAttemptAt' | 'createdAt'
>;

/** What claiming needs to know of a due delivery. */
export type DueDelivery = Pick<WebhookDelivery, 'id' | 'endpointId'>;

/** Where a delivery goes after an attempt (or a skip). */
export type DeliveryState = Partial<
  Pick<WebhookDelivery, 'status' | 'attempts' | 'nextAttemptAt' | 'lastStatusCode' | 'lastError' | 'completedAt'>
>;

/** Deliveries, their schedule and their leases; methods given a manager run in its transaction. */
@Injectable()
export class WebhookDeliveriesRepository {
  constructor(@InjectEntityManager() private readonly db: EntityManager) {}

  async insertMany(deliveries: readonly NewWebhookDelivery[], manager: EntityManager = this.db): Promise<void> {
    if (deliveries.length > 0) await manager.insert(WebhookDelivery, [...deliveries]);
  }

  findOfEndpoint(endpointId: number, id: number, manager: EntityManager = this.db): Promise<WebhookDelivery | null> {
    return manager.findOneBy(WebhookDelivery, { id, endpointId });
  }

  /** One page of an endpoint's deliveries, newest first, and how many there are in all. */
  pageOfEndpoint(
    endpointId: number,
    page: { status?: DeliveryStatus; limit: number; offset: number },
    manager: EntityManager = this.db,
  ): Promise<[WebhookDelivery[], number]> {
    return manager.findAndCount(WebhookDelivery, {
      where: { endpointId, ...(page.status ? { status: page.status } : {}) },
      order: { id: 'DESC' },
      take: page.limit,
      skip: page.offset,
    });
  }

  /**
   * Pending deliveries that are due and not leased, oldest due first. On PostgreSQL the rows are locked until the
   * transaction ends and rows another instance has locked are skipped (FOR UPDATE SKIP LOCKED), so two instances
   * never claim the same delivery; SQLite has a single writer, whose transactions already run one at a time.
   */
  findDue(tx: Pick<Transaction, 'manager' | 'supportsRowLocks'>, now: number, limit: number): Promise<DueDelivery[]> {
    const query = tx.manager
      .createQueryBuilder(WebhookDelivery, 'd')
      .select(['d.id', 'd.endpointId'])
      .where("d.status = 'pending'")
      .andWhere('d.next_attempt_at <= :now', { now })
      .andWhere('(d.lease_until IS NULL OR d.lease_until < :now)', { now })
      .orderBy('d.next_attempt_at', 'ASC')
      .limit(limit);
    if (tx.supportsRowLocks) query.setLock('pessimistic_write').setOnLocked('skip_locked');
    return query.getMany();
  }

  /** Leases these deliveries to `owner` until `leaseUntil` and returns them. */
  async lease(
    ids: readonly number[],
    owner: string,
    leaseUntil: number,
    manager: EntityManager = this.db,
  ): Promise<WebhookDelivery[]> {
    if (ids.length === 0) return [];
    await manager.update(WebhookDelivery, { id: In([...ids]) }, { leaseOwner: owner, leaseUntil });
    return manager.findBy(WebhookDelivery, { id: In([...ids]) });
  }

  /**
   * Writes the delivery's next state and ends its lease, only if `owner` still holds it: false when the lease ran
   * out and another instance claimed the delivery meanwhile (its result then counts, not this one).
   */
  async releaseLease(
    id: number,
    owner: string,
    next: DeliveryState,
    manager: EntityManager = this.db,
  ): Promise<boolean> {
    const result = await manager.update(
      WebhookDelivery,
      { id, leaseOwner: owner },
      { ...next, leaseOwner: null, leaseUntil: null },
    );
    return result.affected === 1;
  }
}
