import { Inject, Injectable } from '@nestjs/common';
import { Clock, UnitOfWork } from '@file-fields/nest';
import type { WebhookDelivery } from '../entities/webhook-delivery.entity.js';
import type { WebhookEndpoint } from '../entities/webhook-endpoint.entity.js';
import { WebhookAttemptsRepository } from '../repositories/webhook-attempts.repository.js';
import type { NewWebhookAttempt } from '../repositories/webhook-attempts.repository.js';
import type { DeliveryRelease, DeliveryState } from '../repositories/delivery-rows.js';
import { WebhookDeliveryLeasesRepository } from '../repositories/webhook-delivery-leases.repository.js';
import { WEBHOOK_LEASE_OWNER } from './webhook-delivery-claimer.js';
import { WebhookEndpointHealth, type AttemptVerdict } from './webhook-endpoint-health.js';
import { nextDelayMs, parseRetryAfter } from './webhook-retry-policy.js';
import type { SendResult } from '../sending/webhook-sender.js';
import { webhooksConfig, type WebhooksConfig } from '../webhooks.config.js';

/** Randomness for retry jitter, injectable so tests can pin it. */
export const WEBHOOK_RANDOM = Symbol('WEBHOOK_RANDOM');

const GONE = 410;

/** One attempt to store: the leased delivery, its endpoint (as read when it was sent), and what came of it. */
export interface AttemptOutcome {
  delivery: WebhookDelivery;
  endpoint: WebhookEndpoint;
  result: SendResult;
  manual: boolean;
}

/**
 * Stores what came of an attempt: the attempt itself, the delivery's next state (succeeded, failed, or pending again
 * at the time the retry policy gives) and the endpoint's health, all in one transaction and only while this instance
 * still holds the delivery's lease. A lease that ran out means another instance may be sending: its result counts.
 */
@Injectable()
export class WebhookAttemptRecorder {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly deliveries: WebhookDeliveryLeasesRepository,
    private readonly attempts: WebhookAttemptsRepository,
    private readonly health: WebhookEndpointHealth,
    @Inject(webhooksConfig.KEY) private readonly config: WebhooksConfig,
    @Inject(WEBHOOK_LEASE_OWNER) private readonly owner: string,
    @Inject(WEBHOOK_RANDOM) private readonly random: () => number,
    private readonly clock: Clock,
  ) {}

  /**
   * False when the lease was lost, and then nothing is stored. A manual attempt, or that of a delivery re-queued by a
   * recovery, is never retried.
   */
  async recordAttempt(
    delivery: WebhookDelivery,
    endpoint: WebhookEndpoint,
    result: SendResult,
    manual: boolean,
  ): Promise<boolean> {
    const [stored] = await this.recordAttempts([{ delivery, endpoint, result, manual }]);
    return stored;
  }

  /**
   * {@link recordAttempt} for several attempts in one transaction of a few statements whatever their number (the
   * dispatcher gathers the attempts that end while a previous batch is being stored). For each attempt, whether it
   * was stored: an attempt whose lease was lost is not, and counts neither for the attempt log nor for health.
   */
  recordAttempts(outcomes: readonly AttemptOutcome[]): Promise<boolean[]> {
    if (outcomes.length === 0) return Promise.resolve([]);
    const now = this.clock.nowMs();
    const planned = outcomes.map((outcome) => ({ outcome, ...this.plan(outcome, now) }));
    if (this.unitOfWork.supportsRowLocks && planned.every(({ verdict }) => verdict.delivered)) {
      // The common case on PostgreSQL: one statement, no transaction around it.
      return this.deliveries.releaseDelivered(planned, this.owner).then((ids) => {
        const held = new Set(ids);
        for (const { id, outcome } of planned) if (held.has(id)) outcome.endpoint.failingSince = null;
        return planned.map(({ id }) => held.has(id));
      });
    }
    return this.unitOfWork.run(async (tx) => {
      const { manager } = tx;
      const held = new Set(await this.deliveries.releaseLeases(planned, this.owner, manager));
      const stored = planned.filter(({ id }) => held.has(id));
      await this.attempts.insertMany(
        stored.map(({ attempt }) => attempt),
        manager,
      );
      // A success needs writing once per endpoint (and only if it was failing); failures are written one by one, in
      // order, as the health rules read the endpoint's state as the previous one left it.
      const healthy = new Set<number>();
      for (const { outcome, verdict } of stored) {
        if (verdict.delivered && healthy.has(outcome.endpoint.id)) continue;
        if (verdict.delivered) healthy.add(outcome.endpoint.id);
        await this.health.afterAttempt(outcome.endpoint, verdict, now, tx);
      }
      return planned.map(({ id }) => held.has(id));
    });
  }

  /** The delivery's next state and the attempt row for one outcome. */
  private plan(
    { delivery, result, manual }: AttemptOutcome,
    now: number,
  ): DeliveryRelease & { verdict: AttemptVerdict; attempt: NewWebhookAttempt } {
    const verdict = { delivered: isSuccess(result), gone: result.statusCode === GONE };
    // A manual attempt, and one a recovery asked for, is that one attempt only.
    const once = manual || delivery.recoveredAt != null;
    const retryIn =
      verdict.delivered || verdict.gone || once ? undefined : this.retryDelay(delivery.attempts + 1, result, now);
    const next: Required<DeliveryState> = {
      attempts: delivery.attempts + 1,
      lastStatusCode: result.statusCode ?? null,
      lastError: result.error ?? null,
      status: verdict.delivered ? 'succeeded' : retryIn === undefined ? 'failed' : 'pending',
      nextAttemptAt: retryIn === undefined ? delivery.nextAttemptAt : now + retryIn,
      completedAt: retryIn === undefined ? now : null,
    };
    const attempt: NewWebhookAttempt = {
      deliveryId: delivery.id,
      attemptedAt: now,
      statusCode: result.statusCode ?? null,
      error: result.error ?? null,
      durationMs: result.durationMs,
      responseBody: result.body ?? null,
    };
    return { id: delivery.id, next, verdict, attempt };
  }

  /**
   * The endpoint was disabled after this delivery was queued, or its creator may not read the event: it is kept as
   * skipped, unsent, with the reason as its `last_error` when there is one.
   */
  recordSkipped(delivery: WebhookDelivery, reason?: string): Promise<boolean> {
    const next: DeliveryState = {
      status: 'skipped',
      completedAt: this.clock.nowMs(),
      ...(reason === undefined ? {} : { lastError: reason }),
    };
    return this.unitOfWork.run(({ manager }) => this.deliveries.releaseLease(delivery.id, this.owner, next, manager));
  }

  private retryDelay(attempt: number, result: SendResult, now: number): number | undefined {
    const outcome = {
      statusCode: result.statusCode,
      timedOut: result.timedOut,
      retryAfterSeconds: parseRetryAfter(result.retryAfter, now),
    };
    return nextDelayMs(this.config.retrySchedule, attempt, outcome, this.random);
  }
}

function isSuccess(result: SendResult): boolean {
  return result.statusCode !== undefined && result.statusCode >= 200 && result.statusCode < 300;
}
