import { Injectable } from '@nestjs/common';
import { InjectEntityManager } from '@nestjs/typeorm';
import { And, In, IsNull, LessThan, MoreThanOrEqual, Not, Or, type EntityManager } from 'typeorm';
import { WebhookAttempt } from '../entities/webhook-attempt.entity.js';
import { DELIVERY_STATUSES, WebhookDelivery, type DeliveryStatus } from '../entities/webhook-delivery.entity.js';
import { WebhookEvent } from '../entities/webhook-event.entity.js';

export type NewWebhookDelivery = Pick<
  WebhookDelivery,
  'eventId' | 'endpointId' | 'status' | 'attempts' | 'nextAttemptAt' | 'createdAt'
> &
  Partial<Pick<WebhookDelivery, 'orderingKey'>>;

/** Which of an endpoint's deliveries its log shows: all, or those matching each criterion given. */
export interface DeliveryFilter {
  status?: DeliveryStatus;
  /** The kind of their event (`file.created`). */
  event?: string;
  /** Their event's id (`evt_…`), which receivers see. */
  eventId?: string;
}

/** What a recovery re-queues: an endpoint's deliveries in these states, created in [since, until). */
export interface RecoveryWindow {
  statuses: readonly DeliveryStatus[];
  since: number;
  until: number;
  /** Deliveries leased at this time (a manual redelivery under way) are left alone. */
  now: number;
}

/**
 * Deliveries: their creation, log, retention and recovery (their leases: WebhookDeliveryLeasesRepository). Methods
 * given a manager run in its transaction.
 */
@Injectable()
export class WebhookDeliveriesRepository {
  constructor(@InjectEntityManager() private readonly db: EntityManager) {}

  async insertMany(deliveries: readonly NewWebhookDelivery[], manager: EntityManager = this.db): Promise<void> {
    if (deliveries.length > 0) await manager.insert(WebhookDelivery, [...deliveries]);
  }

  /**
   * Removes the deliveries that finished (succeeded, failed or skipped; skipped ones count from their creation) before
   * `before`, with their attempts. Pending ones are kept, however old.
   */
  async deleteFinishedBefore(before: number, manager: EntityManager = this.db): Promise<void> {
    const finished = manager
      .createQueryBuilder()
      .subQuery()
      .select('d.id')
      .from(WebhookDelivery, 'd')
      .where("d.status <> 'pending'")
      .andWhere('COALESCE(d.completed_at, d.created_at) < :before')
      .getQuery();
    // Not left to the foreign key's cascade, which SQLite applies only when told to.
    await manager
      .createQueryBuilder()
      .delete()
      .from(WebhookAttempt)
      .where(`delivery_id IN ${finished}`, { before })
      .execute();
    await manager
      .createQueryBuilder()
      .delete()
      .from(WebhookDelivery)
      .where("status <> 'pending'")
      .andWhere('COALESCE(completed_at, created_at) < :before', { before })
      .execute();
  }

  /** When the last `limit` deliveries of events of this kind to this endpoint after `since` were made, newest first. */
  async createdOfKindAfter(
    endpointId: number,
    kind: string,
    since: number,
    limit: number,
    manager: EntityManager = this.db,
  ): Promise<number[]> {
    const rows = await manager
      .createQueryBuilder(WebhookDelivery, 'd')
      .innerJoin(WebhookEvent, 'e', 'e.id = d.event_id')
      .select('d.created_at', 'created_at')
      .where('d.endpoint_id = :endpointId', { endpointId })
      // Every status, named, so that the (endpoint, status, created_at) index bounds the scan to the window.
      .andWhere('d.status IN (:...statuses)', { statuses: DELIVERY_STATUSES })
      .andWhere('d.created_at > :since', { since })
      .andWhere('e.kind = :kind', { kind })
      .orderBy('d.created_at', 'DESC')
      .limit(limit)
      .getRawMany<{ created_at: string | number }>();
    return rows.map((row) => Number(row.created_at));
  }

  findOfEndpoint(endpointId: number, id: number, manager: EntityManager = this.db): Promise<WebhookDelivery | null> {
    return manager.findOneBy(WebhookDelivery, { id, endpointId });
  }

  /**
   * One page of an endpoint's deliveries, newest first, and how many match in all: those in a state, of events of a
   * kind, of one event, or all of them.
   */
  pageOfEndpoint(
    endpointId: number,
    page: DeliveryFilter & { limit: number; offset: number },
    manager: EntityManager = this.db,
  ): Promise<[WebhookDelivery[], number]> {
    const query = manager.createQueryBuilder(WebhookDelivery, 'd').where('d.endpoint_id = :endpointId', { endpointId });
    if (page.status) query.andWhere('d.status = :status', { status: page.status });
    if (page.eventId) query.andWhere('d.event_id = :eventId', { eventId: page.eventId });
    // One event per delivery: the join neither repeats nor drops rows, so limit and offset count deliveries.
    if (page.event) query.innerJoin(WebhookEvent, 'e', 'e.id = d.event_id AND e.kind = :kind', { kind: page.event });
    return query.orderBy('d.id', 'DESC').limit(page.limit).offset(page.offset).getManyAndCount();
  }

  /** How many deliveries re-queued by a recovery of this endpoint still wait for their attempt. */
  countRecovering(endpointId: number, manager: EntityManager = this.db): Promise<number> {
    return manager.countBy(WebhookDelivery, { endpointId, status: 'pending', recoveredAt: Not(IsNull()) });
  }

  /** The first `limit` deliveries of the window, oldest first (by creation, then id). */
  findRecoverable(
    endpointId: number,
    window: RecoveryWindow,
    limit: number,
    manager: EntityManager = this.db,
  ): Promise<Array<Pick<WebhookDelivery, 'id' | 'createdAt'>>> {
    return manager.find(WebhookDelivery, {
      select: { id: true, createdAt: true },
      where: recoverable(endpointId, window),
      order: { createdAt: 'ASC', id: 'ASC' },
      take: limit,
    });
  }

  countRecoverable(endpointId: number, window: RecoveryWindow, manager: EntityManager = this.db): Promise<number> {
    return manager.countBy(WebhookDelivery, recoverable(endpointId, window));
  }

  /**
   * Pending again, due at their creation time (so in the past, and sent in the order they were created, before newer
   * events), marked as re-queued by a recovery at `recoveredAt`: each then gets one attempt, never retried.
   */
  async requeue(ids: readonly number[], recoveredAt: number, manager: EntityManager = this.db): Promise<void> {
    for (let i = 0; i < ids.length; i += REQUEUE_CHUNK) {
      await manager.update(
        WebhookDelivery,
        { id: In(ids.slice(i, i + REQUEUE_CHUNK)) },
        {
          status: 'pending',
          nextAttemptAt: () => 'created_at',
          completedAt: null,
          leaseOwner: null,
          leaseUntil: null,
          recoveredAt,
        },
      );
    }
  }
}

/** Ids per UPDATE of a recovery: well within the bound parameters of both databases. */
const REQUEUE_CHUNK = 1_000;

/** The deliveries of a recovery window that no one is sending (a manual redelivery holds a lease). */
const recoverable = (endpointId: number, window: RecoveryWindow) => ({
  endpointId,
  status: In([...window.statuses]),
  createdAt: And(MoreThanOrEqual(window.since), LessThan(window.until)),
  leaseUntil: Or(IsNull(), LessThan(window.now)),
});
