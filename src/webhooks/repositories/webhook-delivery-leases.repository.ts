import { Injectable } from '@nestjs/common';
import { InjectEntityManager } from '@nestjs/typeorm';
import { In, type EntityManager } from 'typeorm';
import type { Transaction } from '@file-fields/nest';
import { WebhookDelivery } from '../entities/webhook-delivery.entity.js';
import type { NewWebhookAttempt } from './webhook-attempts.repository.js';
import {
  rowsOf,
  SET_STATE,
  STATE_COLUMNS,
  STATE_TYPES,
  stateValues,
  toDelivery,
  valuesRow,
  type ClaimedDelivery,
  type DeliveryRelease,
  type DeliveryState,
  type DueDelivery,
  type LeasedRow,
} from './delivery-rows.js';

/**
 * For a delivery `d` ordered per entity: a pending delivery of its endpoint and entity written before it, which it
 * waits for (leased or not, due or retrying). Answered from ix_webhook_deliveries_ordering.
 */
const EARLIER_OF_ENTITY = `SELECT 1 FROM webhook_deliveries AS earlier
  WHERE earlier.endpoint_id = d.endpoint_id AND earlier.ordering_key = d.ordering_key
    AND earlier.status = 'pending' AND earlier.id < d.id`;

/**
 * The leases on deliveries: due ones claimed by one instance at a time, and released with their next state after an
 * attempt. Methods given a manager run in its transaction.
 */
@Injectable()
export class WebhookDeliveryLeasesRepository {
  constructor(@InjectEntityManager() private readonly db: EntityManager) {}

  /**
   * Pending deliveries that are due, not leased, and not waiting for an earlier one of their entity (endpoints ordered
   * per entity), oldest due first, of endpoints other than `skippedEndpoints`. On
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
      .andWhere(`(d.ordering_key IS NULL OR NOT EXISTS (${EARLIER_OF_ENTITY}))`)
      .orderBy('d.next_attempt_at', 'ASC')
      .limit(limit);
    // Endpoints already at their bound: a backlog of theirs (a recovery) would otherwise fill every candidate slot.
    if (skippedEndpoints.length > 0)
      query.andWhere('d.endpoint_id NOT IN (:...skipped)', { skipped: skippedEndpoints });
    if (tx.supportsRowLocks) query.setLock('pessimistic_write').setOnLocked('skip_locked');
    return query.getMany();
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
         SELECT id, endpoint_id, next_attempt_at FROM webhook_deliveries AS d
         WHERE status = 'pending' AND next_attempt_at <= $1 AND (lease_until IS NULL OR lease_until < $1)
           AND NOT (endpoint_id = ANY($2::integer[]))
           AND (ordering_key IS NULL OR NOT EXISTS (${EARLIER_OF_ENTITY}))
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
       RETURNING d.id, d.event_id, d.endpoint_id, d.status, d.ordering_key, d.attempts, d.next_attempt_at, d.lease_owner,
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
         UPDATE webhook_endpoints SET failing_since = NULL, warned_at = NULL, updated_at = CURRENT_TIMESTAMP
         WHERE id IN (SELECT endpoint_id FROM released) AND failing_since IS NOT NULL
       )
       SELECT id FROM released`,
      params,
    );
    return rowsOf<{ id: number }>(result).map((row) => Number(row.id));
  }
}
