import { Injectable } from '@nestjs/common';
import { Clock, UnitOfWork } from '@file-fields/nest';
import type { Transaction } from '@file-fields/nest';
import type { DeliveryStatus } from '../entities/webhook-delivery.entity.js';
import { WebhookDeliveriesRepository } from '../repositories/webhook-deliveries.repository.js';
import { WebhookEndpointsRepository } from '../repositories/webhook-endpoints.repository.js';
import { WebhookDispatcher } from '../delivery/webhook-dispatcher.js';
import { WebhooksError, WebhooksErrorCode } from '../webhooks.errors.js';

/** Deliveries one call re-queues at most: a receiver just back up is not flooded, and the transaction stays short. */
export const RECOVERY_LIMIT = 10_000;

export const RECOVERABLE_STATUSES = ['failed', 'skipped'] as const satisfies readonly DeliveryStatus[];
export type RecoverableStatus = (typeof RECOVERABLE_STATUSES)[number];

/** A recovery as asked for: RFC 3339 times (validated), `until` the time of the call when absent. */
export interface RecoveryRequest {
  since: string;
  until?: string;
  status?: RecoverableStatus[];
}

export interface RecoveryResult {
  requeued: number;
  /** Deliveries of the window not re-queued, for a call from `nextSince` on. */
  remaining: number;
  nextSince: number | null;
  since: number;
  until: number;
}

/**
 * The deliveries one call re-queues: the first `limit` of the window, oldest first. When more remain, the batch ends
 * before the millisecond the rest starts in, so that a call from `nextSince` on re-queues nothing twice (unless more
 * than `limit` deliveries share one millisecond, which then has to be split).
 */
export function recoveryBatch<T extends { createdAt: number }>(
  found: readonly T[],
  limit: number,
): { batch: T[]; nextSince: number | null } {
  if (found.length <= limit) return { batch: [...found], nextSince: null };
  const nextSince = found[limit].createdAt;
  const whole = found.slice(0, limit).filter((delivery) => delivery.createdAt < nextSince);
  return { batch: whole.length > 0 ? whole : found.slice(0, limit), nextSince };
}

/**
 * Bulk recovery: an endpoint's failed and skipped deliveries of a time window become pending again, with their event
 * ids, and the dispatcher sends them oldest first at the endpoint's concurrency, one attempt each. A recovery runs
 * until every delivery it re-queued has had its attempt; meanwhile another is refused. That state is the deliveries'
 * own (pending, re-queued by a recovery), so it holds across instances and never outlives an instance that died.
 */
@Injectable()
export class WebhookRecovery {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly endpoints: WebhookEndpointsRepository,
    private readonly deliveries: WebhookDeliveriesRepository,
    private readonly dispatcher: WebhookDispatcher,
    private readonly clock: Clock,
  ) {}

  async recover(id: number, request: RecoveryRequest): Promise<RecoveryResult> {
    const now = this.clock.nowMs();
    const since = Date.parse(request.since);
    const until = request.until === undefined ? now : Date.parse(request.until);
    const window = { statuses: request.status ?? RECOVERABLE_STATUSES, since, until, now };
    const result = await this.unitOfWork.run(async (tx) => {
      await this.assertMayRecover(id, tx);
      const found = await this.deliveries.findRecoverable(id, window, RECOVERY_LIMIT + 1, tx.manager);
      const { batch, nextSince } = recoveryBatch(found, RECOVERY_LIMIT);
      await this.deliveries.requeue(
        batch.map((delivery) => delivery.id),
        now,
        tx.manager,
      );
      const remaining =
        nextSince === null
          ? 0
          : await this.deliveries.countRecoverable(id, { ...window, since: nextSince }, tx.manager);
      return { requeued: batch.length, remaining, nextSince, since, until };
    });
    if (result.requeued > 0) this.dispatcher.wake();
    return result;
  }

  /**
   * The endpoint exists, is enabled (its deliveries would only be skipped again), and no earlier recovery of it still
   * waits. Its row stays locked until the transaction ends (on SQLite transactions run one at a time), so two
   * concurrent calls, on any instances, cannot both pass.
   */
  private async assertMayRecover(id: number, tx: Transaction): Promise<void> {
    const endpoint = await this.endpoints.findForUpdate(id, tx);
    if (!endpoint) throw new WebhooksError(WebhooksErrorCode.EndpointNotFound, `Webhook ${id} does not exist.`);
    if (!endpoint.active) {
      const detail = `Webhook ${id} is disabled; re-enable it (PATCH active: true) before recovering its deliveries.`;
      throw new WebhooksError(WebhooksErrorCode.EndpointDisabled, detail);
    }
    const waiting = await this.deliveries.countRecovering(id, tx.manager);
    if (waiting > 0) {
      const detail = `A recovery of webhook ${id} is running: ${waiting} of its deliveries still wait to be sent.`;
      throw new WebhooksError(WebhooksErrorCode.RecoveryRunning, detail);
    }
  }
}
