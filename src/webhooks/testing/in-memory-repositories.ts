import { copyRow as copy, type Public } from '@file-fields/nest/testing';
import { WebhookAttempt } from '../entities/webhook-attempt.entity.js';
import { WebhookDelivery } from '../entities/webhook-delivery.entity.js';
import { WebhookEndpoint } from '../entities/webhook-endpoint.entity.js';
import type { WebhookEvent } from '../entities/webhook-event.entity.js';
import type { NewWebhookAttempt, WebhookAttemptsRepository } from '../repositories/webhook-attempts.repository.js';
import type {
  DeliveryFilter,
  NewWebhookDelivery,
  RecoveryWindow,
  WebhookDeliveriesRepository,
} from '../repositories/webhook-deliveries.repository.js';
import type { WebhookEndpointsRepository } from '../repositories/webhook-endpoints.repository.js';
import type { WebhookEventsRepository } from '../repositories/webhook-events.repository.js';
import { webhooksConfigFrom, type WebhooksConfig } from '../webhooks.config.js';

// Re-exported so a spec takes all its fakes from its own module.
export { asReal, FakeClock, FakeUnitOfWork } from '@file-fields/nest/testing';
export { FakeWebhookDeliveryLeasesRepository } from './in-memory-delivery-leases.js';

/* eslint-disable @typescript-eslint/require-await -- the fakes answer at once, with the repositories' signatures */

/*
 * In-memory stand-ins for the webhooks module's repositories, for unit specs (no database). They
 * hand out copies, as a database does, so a part that changes an entity without saving it changes nothing.
 */

/** The settings of a test: the defaults, with the given variables on top. */
export function testConfig(env: Record<string, string> = {}): WebhooksConfig {
  return webhooksConfigFrom(env);
}

export class FakeWebhookDeliveriesRepository implements Public<WebhookDeliveriesRepository> {
  readonly rows: WebhookDelivery[] = [];
  /** The events table, which the real repository joins to tell deliveries' kinds. */
  events?: FakeWebhookEventsRepository;

  /** A pending delivery due at `nextAttemptAt`, unleased unless told otherwise. */
  add(fields: Partial<WebhookDelivery> & Pick<WebhookDelivery, 'endpointId'>): WebhookDelivery {
    const id = this.rows.length + 1;
    const delivery = Object.assign(new WebhookDelivery(), {
      ...{ id, eventId: `evt_${id}`, status: 'pending' as const, attempts: 0, nextAttemptAt: 0 },
      ...{ leaseOwner: null, leaseUntil: null, lastStatusCode: null, lastError: null, createdAt: 0, completedAt: null },
      recoveredAt: null,
      orderingKey: null,
      ...fields,
    });
    this.rows.push(delivery);
    return copy(delivery);
  }

  byId(id: number): WebhookDelivery {
    const row = this.rows.find((delivery) => delivery.id === id);
    if (!row) throw new Error(`No delivery ${id}`);
    return row;
  }

  insertMany = async (deliveries: readonly NewWebhookDelivery[]) => {
    for (const delivery of deliveries) this.add(delivery);
  };
  deleteFinishedBefore = async (before: number) => {
    const kept = this.rows.filter((row) => row.status === 'pending' || (row.completedAt ?? row.createdAt) >= before);
    this.rows.splice(0, this.rows.length, ...kept);
  };
  createdOfKindAfter = async (endpointId: number, kind: string, since: number, limit: number) =>
    this.rows
      .filter((row) => row.endpointId === endpointId && row.createdAt > since)
      .filter((row) => this.events?.rows.find((event) => event.id === row.eventId)?.kind === kind)
      .map((row) => row.createdAt)
      .sort((a, b) => b - a)
      .slice(0, limit);
  findOfEndpoint = async (endpointId: number, id: number) =>
    copyOrNull(this.rows.find((row) => row.id === id && row.endpointId === endpointId));
  pageOfEndpoint = async (endpointId: number, page: DeliveryFilter & { limit: number; offset: number }) => {
    const kindOf = (row: WebhookDelivery) => this.events?.rows.find((event) => event.id === row.eventId)?.kind;
    const all = this.rows
      .filter((row) => row.endpointId === endpointId)
      .filter((row) => (page.status ?? row.status) === row.status && (page.eventId ?? row.eventId) === row.eventId)
      .filter((row) => page.event === undefined || kindOf(row) === page.event)
      .reverse();
    return [all.slice(page.offset, page.offset + page.limit).map(copy), all.length] as [WebhookDelivery[], number];
  };
  countRecovering = async (endpointId: number) =>
    this.rows.filter((row) => row.endpointId === endpointId && row.status === 'pending' && row.recoveredAt !== null)
      .length;
  findRecoverable = async (endpointId: number, window: RecoveryWindow, limit: number) =>
    this.inWindow(endpointId, window)
      .sort((a, b) => a.createdAt - b.createdAt || a.id - b.id)
      .slice(0, limit)
      .map(({ id, createdAt }) => ({ id, createdAt }));
  countRecoverable = async (endpointId: number, window: RecoveryWindow) => this.inWindow(endpointId, window).length;
  requeue = async (ids: readonly number[], recoveredAt: number) => {
    for (const id of ids) {
      const row = this.byId(id);
      const next = { status: 'pending' as const, nextAttemptAt: row.createdAt, completedAt: null, recoveredAt };
      Object.assign(row, next, { leaseOwner: null, leaseUntil: null });
    }
  };
  private inWindow(endpointId: number, { statuses, since, until, now }: RecoveryWindow): WebhookDelivery[] {
    return this.rows.filter(
      (row) =>
        row.endpointId === endpointId &&
        statuses.includes(row.status) &&
        row.createdAt >= since &&
        row.createdAt < until &&
        (row.leaseUntil ?? 0) < now,
    );
  }
}

export class FakeWebhookAttemptsRepository implements Public<WebhookAttemptsRepository> {
  readonly rows: WebhookAttempt[] = [];

  insert = async (attempt: NewWebhookAttempt) => {
    this.rows.push(Object.assign(new WebhookAttempt(), attempt, { id: this.rows.length + 1 }));
  };
  insertMany = async (attempts: readonly NewWebhookAttempt[]) => {
    for (const attempt of attempts) await this.insert(attempt);
  };
  ofDeliveries = async (deliveryIds: readonly number[]) =>
    this.rows.filter((row) => deliveryIds.includes(row.deliveryId)).map(copy);
  deleteAttemptedBefore = async (before: number) => {
    const kept = this.rows.filter((row) => row.attemptedAt >= before);
    this.rows.splice(0, this.rows.length, ...kept);
  };
}

export class FakeWebhookEndpointsRepository implements Public<WebhookEndpointsRepository> {
  readonly rows: WebhookEndpoint[] = [];

  add(fields: Partial<WebhookEndpoint> = {}): WebhookEndpoint {
    const endpoint = Object.assign(new WebhookEndpoint(), {
      ...{ id: this.rows.length + 1, url: 'https://example.org/hook', events: ['*'], filter: null, description: null },
      ...{ secret: 'whsec_current', previousSecret: null, previousSecretExpiresAt: null },
      ...{ signatureScheme: 'github', previousSignatureScheme: null },
      ...{ active: true, disabledReason: null, failingSince: null, createdAt: new Date(0), updatedAt: new Date(0) },
      ...{ createdBy: null, creatorScopes: null },
      ...{ ordering: 'none', payload: 'full', rateLimit: null, autoRecover: false, warnedAt: null, nextProbeAt: null },
      ...fields,
    });
    this.rows.push(endpoint);
    return copy(endpoint);
  }

  byId(id: number): WebhookEndpoint {
    const row = this.rows.find((endpoint) => endpoint.id === id);
    if (!row) throw new Error(`No endpoint ${id}`);
    return row;
  }

  list = async () => this.rows.map(copy);
  findById = async (id: number) => copyOrNull(this.rows.find((row) => row.id === id));
  findByIds = async (ids: readonly number[]) => this.rows.filter((row) => ids.includes(row.id)).map(copy);
  create = async (endpoint: Parameters<WebhookEndpointsRepository['create']>[0]) => this.add(endpoint);
  save = async (endpoint: WebhookEndpoint) => {
    Object.assign(this.byId(endpoint.id), copy(endpoint));
    return copy(endpoint);
  };
  delete = async (id: number) => {
    this.rows.splice(this.rows.indexOf(this.byId(id)), 1);
  };
  markHealthy = async (id: number) => {
    Object.assign(this.byId(id), { failingSince: null, warnedAt: null });
  };
  markFailing = async (id: number, failingSince: number, disabled?: { reason: string; nextProbeAt: number | null }) => {
    const row = this.byId(id);
    const disabling = disabled !== undefined && row.active;
    Object.assign(
      row,
      { failingSince },
      disabling ? { active: false, disabledReason: disabled.reason, nextProbeAt: disabled.nextProbeAt } : {},
    );
    return disabling;
  };
  markWarned = async (id: number, at: number) => {
    const row = this.byId(id);
    if (!row.active || row.warnedAt !== null) return false;
    row.warnedAt = at;
    return true;
  };
  findProbeDue = async (now: number, limit: number) =>
    this.rows
      .filter((row) => !row.active && row.autoRecover && row.nextProbeAt !== null && row.nextProbeAt <= now)
      .sort((a, b) => (a.nextProbeAt ?? 0) - (b.nextProbeAt ?? 0))
      .slice(0, limit)
      .map(copy);
  takeProbe = async (id: number, due: number, next: number) => {
    const row = this.byId(id);
    if (row.active || !row.autoRecover || row.nextProbeAt !== due) return false;
    row.nextProbeAt = next;
    return true;
  };
  findForUpdate = async (id: number) => this.findById(id);
}

export class FakeWebhookEventsRepository implements Public<WebhookEventsRepository> {
  readonly rows: WebhookEvent[] = [];
  /** The deliveries table, which the real repository reads to keep the events still referred to. */
  deliveries?: FakeWebhookDeliveriesRepository;

  insert = async (event: WebhookEvent) => {
    this.rows.push(copy(event));
  };
  findById = async (id: string) => copyOrNull(this.rows.find((row) => row.id === id));
  findByIds = async (ids: readonly string[]) => this.rows.filter((row) => ids.includes(row.id)).map(copy);
  deleteUnreferencedBefore = async (before: number) => {
    const referenced = new Set(this.deliveries?.rows.map((row) => row.eventId));
    const kept = this.rows.filter((row) => row.createdAt >= before || referenced.has(row.id));
    this.rows.splice(0, this.rows.length, ...kept);
  };
}

function copyOrNull<T extends object>(row: T | undefined): T | null {
  return row ? copy(row) : null;
}
