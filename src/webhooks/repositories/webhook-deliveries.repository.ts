import { Injectable } from '@nestjs/common';
import { InjectEntityManager } from '@nestjs/typeorm';
import { And, In, IsNull, LessThan, MoreThanOrEqual, Not, Or, type EntityManager } from 'typeorm';
import type { Transaction } from '../../database/unit-of-work.js';
import { WebhookAttempt } from '../entities/webhook-attempt.entity.js';
import { DELIVERY_STATUSES, WebhookDelivery, type DeliveryStatus } from '../entities/webhook-delivery.entity.js';
import { WebhookEvent } from '../entities/webhook-event.entity.js';
import type { NewWebhookAttempt } from './webhook-attempts.repository.js';

export type NewWebhookDelivery = Pick<
  WebhookDelivery,
  'eventId' | 'endpointId' | 'status' | 'attempts' | 'nextAttemptAt' | 'createdAt'
>;

/** What claiming needs to know of a due delivery. */
export type DueDelivery = Pick<WebhookDelivery, 'id' | 'endpointId'>;

/**
 * A delivery just claimed, with what a claim on PostgreSQL reads along: its event, and its endpoint's version (the
 * text of `updated_at`, which every change to the endpoint moves), so an unchanged endpoint need not be read again.
 */
export type ClaimedDelivery = WebhookDelivery & { prefetched?: { event: WebhookEvent; endpointVersion: string } };

/** What a recovery re-queues: an endpoint's deliveries in these states, created in [since, until). */
export interface RecoveryWindow {
  statuses: readonly DeliveryStatus[];
  since: number;
  until: number;
  /** Deliveries leased at this time (a manual redelivery under way) are left alone. */
  now: number;
}

/** Where a delivery goes after an attempt (or a skip). */
export type DeliveryState = Partial<
  Pick<WebhookDelivery, 'status' | 'attempts' | 'nextAttemptAt' | 'lastStatusCode' | 'lastError' | 'completedAt'>
>;

/** A delivery's whole next state after an attempt, for {@link WebhookDeliveriesRepository.releaseLeases}. */
export interface DeliveryRelease {
  id: number;
  next: Required<DeliveryState>;
}

/** Deliveries, their schedule and their leases; methods given a manager run in its transaction. */
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
   * Pending deliveries that are due and not leased, oldest due first, of endpoints other than `skippedEndpoints`. On
   * PostgreSQL the rows are locked until the transaction ends and rows another instance has locked are skipped (FOR
   * UPDATE SKIP LOCKED), so two instances never claim the same delivery; SQLite has a single writer, whose
   * transactions already run one at a time.
   */
  findDue(
    tx: Pick<Transaction, 'manager' | 'supportsRowLocks'>,
    now: number,
    limit: number,
    skippedEndpoints: readonly number[] = [],
  ): Promise<DueDelivery[]> {
    const query = tx.manager
      .createQueryBuilder(WebhookDelivery, 'd')
      .select(['d.id', 'd.endpointId'])
      .where("d.status = 'pending'")
      .andWhere('d.next_attempt_at <= :now', { now })
      .andWhere('(d.lease_until IS NULL OR d.lease_until < :now)', { now })
      .orderBy('d.next_attempt_at', 'ASC')
      .limit(limit);
    // Endpoints already at their bound: a backlog of theirs (a recovery) would otherwise fill every candidate slot.
    if (skippedEndpoints.length > 0)
      query.andWhere('d.endpoint_id NOT IN (:...skipped)', { skipped: skippedEndpoints });
    if (tx.supportsRowLocks) query.setLock('pessimistic_write').setOnLocked('skip_locked');
    return query.getMany();
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

  /**
   * PostgreSQL only: {@link findDue} and {@link lease} in one statement (no transaction around it), oldest due first.
   * Takes at most `limit` deliveries, and at most `room.get(endpointId) ?? perEndpoint` of any one endpoint; rows
   * another instance has locked are skipped, and a lease written by a concurrent claim is seen (the row is re-checked
   * once its lock is released), so two instances never claim the same delivery. Each comes with its event and its
   * endpoint's version.
   */
  async leaseDue(
    claim: { now: number; limit: number; perEndpoint: number; room: ReadonlyMap<number, number> },
    owner: string,
    leaseUntil: number,
  ): Promise<ClaimedDelivery[]> {
    const full = [...claim.room].filter(([, room]) => room <= 0).map(([endpointId]) => endpointId);
    const result: unknown = await this.db.query(
      `WITH due AS (
         SELECT id, endpoint_id, next_attempt_at FROM webhook_deliveries
         WHERE status = 'pending' AND next_attempt_at <= $1 AND (lease_until IS NULL OR lease_until < $1)
           AND NOT (endpoint_id = ANY($2::integer[]))
         ORDER BY next_attempt_at LIMIT $3
         FOR UPDATE SKIP LOCKED
       ), ranked AS (
         SELECT id, next_attempt_at,
           row_number() OVER (PARTITION BY endpoint_id ORDER BY next_attempt_at, id) AS nth,
           COALESCE(($4::jsonb ->> endpoint_id::text)::integer, $5) AS room
         FROM due
       ), picked AS (
         SELECT id FROM ranked WHERE nth <= room ORDER BY next_attempt_at, id LIMIT $6
       )
       UPDATE webhook_deliveries AS d SET lease_owner = $7, lease_until = $8
       FROM picked, webhook_events AS ev, webhook_endpoints AS ep
       WHERE d.id = picked.id AND ev.id = d.event_id AND ep.id = d.endpoint_id
       RETURNING d.id, d.event_id, d.endpoint_id, d.status, d.attempts, d.next_attempt_at, d.lease_owner,
         d.lease_until, d.last_status_code, d.last_error, d.created_at, d.completed_at, d.recovered_at,
         ev.kind AS event_kind, ev.data AS event_data, ev.created_at AS event_created_at,
         ep.updated_at::text AS endpoint_version`,
      [
        claim.now,
        full,
        claim.limit * 2,
        JSON.stringify(Object.fromEntries(claim.room)),
        claim.perEndpoint,
        claim.limit,
        owner,
        leaseUntil,
      ],
    );
    return rowsOf<LeasedRow>(result)
      .map(toDelivery)
      .sort((a, b) => a.nextAttemptAt - b.nextAttemptAt || a.id - b.id);
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

  /**
   * {@link releaseLease} for many deliveries at once: the ids whose lease `owner` still held, and whose next state
   * was written. One statement on PostgreSQL (UPDATE … FROM VALUES … RETURNING); one per delivery on SQLite, which
   * has no round trips to save.
   */
  async releaseLeases(
    releases: readonly DeliveryRelease[],
    owner: string,
    manager: EntityManager = this.db,
  ): Promise<number[]> {
    if (releases.length === 0) return [];
    if (manager.connection.options.type !== 'postgres') {
      const held: number[] = [];
      for (const { id, next } of releases) if (await this.releaseLease(id, owner, next, manager)) held.push(id);
      return held;
    }
    const params: unknown[] = [owner];
    const rows = releases.map(({ id, next }) => {
      const at = params.push(id, ...stateValues(next)) - 7;
      return valuesRow(at, STATE_TYPES);
    });
    const result: unknown = await manager.query(
      `UPDATE webhook_deliveries AS d SET ${SET_STATE}
       FROM (VALUES ${rows.join(', ')}) AS v(${STATE_COLUMNS})
       WHERE d.id = v.id AND d.lease_owner = $1
       RETURNING d.id`,
      params,
    );
    return rowsOf<{ id: number }>(result).map((row) => Number(row.id));
  }

  /**
   * PostgreSQL only, for attempts that all succeeded: {@link releaseLeases}, the attempts' log rows (for the
   * deliveries whose lease was still held) and their endpoints marked healthy where they were failing, in one
   * statement, so as atomically as in one transaction. The ids whose lease was still held.
   */
  async releaseDelivered(
    releases: ReadonlyArray<DeliveryRelease & { attempt: NewWebhookAttempt }>,
    owner: string,
  ): Promise<number[]> {
    if (releases.length === 0) return [];
    const params: unknown[] = [owner];
    const rows = releases.map(({ id, next, attempt }) => {
      const at = params.push(id, ...stateValues(next)) - 7;
      params.push(attempt.attemptedAt, attempt.durationMs, attempt.responseBody);
      return valuesRow(at, [...STATE_TYPES, 'bigint', 'integer', 'text']);
    });
    const result: unknown = await this.db.query(
      `WITH v(${STATE_COLUMNS}, attempted_at, duration_ms, response_body) AS (VALUES ${rows.join(', ')}),
       released AS (
         UPDATE webhook_deliveries AS d SET ${SET_STATE}
         FROM v WHERE d.id = v.id AND d.lease_owner = $1
         RETURNING d.id, d.endpoint_id
       ), logged AS (
         INSERT INTO webhook_attempts (delivery_id, attempted_at, status_code, error, duration_ms, response_body)
         SELECT v.id, v.attempted_at, v.code, v.error, v.duration_ms, v.response_body
         FROM v JOIN released ON released.id = v.id
       ), healthy AS (
         UPDATE webhook_endpoints SET failing_since = NULL, updated_at = CURRENT_TIMESTAMP
         WHERE id IN (SELECT endpoint_id FROM released) AND failing_since IS NOT NULL
       )
       SELECT id FROM released`,
      params,
    );
    return rowsOf<{ id: number }>(result).map((row) => Number(row.id));
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

/** The VALUES columns of a delivery's next state, their types, and the SET clause that writes them to `d`. */
const STATE_COLUMNS = 'id, status, attempts, next_at, code, error, completed_at';
const STATE_TYPES = ['integer', 'varchar', 'integer', 'bigint', 'integer', 'varchar', 'bigint'];
const SET_STATE = `status = v.status, attempts = v.attempts, next_attempt_at = v.next_at, last_status_code = v.code,
  last_error = v.error, completed_at = v.completed_at, lease_owner = NULL, lease_until = NULL`;

/** The values of STATE_COLUMNS after the id. */
const stateValues = (next: Required<DeliveryState>) => [
  next.status,
  next.attempts,
  next.nextAttemptAt,
  next.lastStatusCode,
  next.lastError,
  next.completedAt,
];

/** The parameter placeholders of one VALUES row, with their types, from parameter number `at` + 1 on. */
const valuesRow = (at: number, types: readonly string[]) =>
  `(${types.map((type, i) => `$${at + i + 1}::${type}`).join(', ')})`;

/** A webhook_deliveries row as PostgreSQL returns it (bigint columns as strings). */
interface LeasedRow {
  event_kind: string;
  event_data: string;
  event_created_at: string;
  endpoint_version: string;
  id: number;
  event_id: string;
  endpoint_id: number;
  status: DeliveryStatus;
  attempts: number;
  next_attempt_at: string;
  lease_owner: string | null;
  lease_until: string | null;
  last_status_code: number | null;
  last_error: string | null;
  created_at: string;
  completed_at: string | null;
  recovered_at: string | null;
}

/** The rows of a raw UPDATE … RETURNING: TypeORM answers it on PostgreSQL with [rows, affected count]. */
function rowsOf<T>(result: unknown): T[] {
  return (Array.isArray(result) && Array.isArray(result[0]) ? result[0] : result) as T[];
}

const numberOrNull = (value: string | null) => (value === null ? null : Number(value));

function toDelivery(row: LeasedRow): ClaimedDelivery {
  const event = Object.assign(new WebhookEvent(), {
    id: row.event_id,
    kind: row.event_kind,
    data: JSON.parse(row.event_data) as Record<string, unknown>,
    createdAt: Number(row.event_created_at),
  });
  return Object.assign(new WebhookDelivery(), {
    prefetched: { event, endpointVersion: row.endpoint_version },
    id: row.id,
    eventId: row.event_id,
    endpointId: row.endpoint_id,
    status: row.status,
    attempts: row.attempts,
    nextAttemptAt: Number(row.next_attempt_at),
    leaseOwner: row.lease_owner,
    leaseUntil: numberOrNull(row.lease_until),
    lastStatusCode: row.last_status_code,
    lastError: row.last_error,
    createdAt: Number(row.created_at),
    completedAt: numberOrNull(row.completed_at),
    recoveredAt: numberOrNull(row.recovered_at),
  });
}
