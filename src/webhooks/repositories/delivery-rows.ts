import { WebhookDelivery, type DeliveryStatus } from '../entities/webhook-delivery.entity.js';
import { WebhookEvent } from '../entities/webhook-event.entity.js';

/*
 * Deliveries as WebhookDeliveryLeasesRepository claims and releases them, and the rows its raw PostgreSQL statements
 * write and read.
 */

/** What claiming needs to know of a due delivery. */
export type DueDelivery = Pick<WebhookDelivery, 'id' | 'endpointId'>;

/**
 * A delivery just claimed, with what a claim on PostgreSQL reads along: its event, and its endpoint's version (the
 * text of `updated_at`, which every change to the endpoint moves), so an unchanged endpoint need not be read again.
 */
export type ClaimedDelivery = WebhookDelivery & { prefetched?: { event: WebhookEvent; endpointVersion: string } };

/** Where a delivery goes after an attempt (or a skip). */
export type DeliveryState = Partial<
  Pick<WebhookDelivery, 'status' | 'attempts' | 'nextAttemptAt' | 'lastStatusCode' | 'lastError' | 'completedAt'>
>;

/** A delivery's whole next state after an attempt, for {@link WebhookDeliveryLeasesRepository.releaseLeases}. */
export interface DeliveryRelease {
  id: number;
  next: Required<DeliveryState>;
}

/** The VALUES columns of a delivery's next state, their types, and the SET clause that writes them to `d`. */
export const STATE_COLUMNS = 'id, status, attempts, next_at, code, error, completed_at';
export const STATE_TYPES = ['integer', 'varchar', 'integer', 'bigint', 'integer', 'varchar', 'bigint'];
export const SET_STATE = `status = v.status, attempts = v.attempts, next_attempt_at = v.next_at, last_status_code = v.code,
  last_error = v.error, completed_at = v.completed_at, lease_owner = NULL, lease_until = NULL`;

/** The values of STATE_COLUMNS after the id. */
export const stateValues = (next: Required<DeliveryState>) => [
  next.status,
  next.attempts,
  next.nextAttemptAt,
  next.lastStatusCode,
  next.lastError,
  next.completedAt,
];

/** The parameter placeholders of one VALUES row, with their types, from parameter number `at` + 1 on. */
export const valuesRow = (at: number, types: readonly string[]) =>
  `(${types.map((type, i) => `$${at + i + 1}::${type}`).join(', ')})`;

/** A webhook_deliveries row as PostgreSQL returns it (bigint columns as strings). */
export interface LeasedRow {
  event_kind: string;
  event_data: string;
  event_created_at: string;
  endpoint_version: string;
  id: number;
  event_id: string;
  endpoint_id: number;
  status: DeliveryStatus;
  ordering_key: string | null;
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
export function rowsOf<T>(result: unknown): T[] {
  return (Array.isArray(result) && Array.isArray(result[0]) ? result[0] : result) as T[];
}

const numberOrNull = (value: string | null) => (value === null ? null : Number(value));

export function toDelivery(row: LeasedRow): ClaimedDelivery {
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
    orderingKey: row.ordering_key,
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
