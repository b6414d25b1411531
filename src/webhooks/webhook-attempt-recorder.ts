import { Inject, Injectable } from '@nestjs/common';
import { Clock } from '../common/clock.js';
import { UnitOfWork } from '../database/unit-of-work.js';
import type { WebhookDelivery } from './entities/webhook-delivery.entity.js';
import type { WebhookEndpoint } from './entities/webhook-endpoint.entity.js';
import { WebhookAttemptsRepository } from './repositories/webhook-attempts.repository.js';
import { WebhookDeliveriesRepository, type DeliveryState } from './repositories/webhook-deliveries.repository.js';
import { WEBHOOK_LEASE_OWNER } from './webhook-delivery-claimer.js';
import { WebhookEndpointHealth } from './webhook-endpoint-health.js';
import { nextDelayMs, parseRetryAfter } from './webhook-retry-policy.js';
import type { SendResult } from './webhook-sender.js';
import { webhooksConfig, type WebhooksConfig } from './webhooks.config.js';

/** Randomness for retry jitter, injectable so tests can pin it. */
export const WEBHOOK_RANDOM = Symbol('WEBHOOK_RANDOM');

const GONE = 410;

/**
 * Stores what came of an attempt: the attempt itself, the delivery's next state (succeeded, failed, or pending again
 * at the time the retry policy gives) and the endpoint's health, all in one transaction and only while this instance
 * still holds the delivery's lease. A lease that ran out means another instance may be sending: its result counts.
 */
@Injectable()
export class WebhookAttemptRecorder {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly deliveries: WebhookDeliveriesRepository,
    private readonly attempts: WebhookAttemptsRepository,
    private readonly health: WebhookEndpointHealth,
    @Inject(webhooksConfig.KEY) private readonly config: WebhooksConfig,
    @Inject(WEBHOOK_LEASE_OWNER) private readonly owner: string,
    @Inject(WEBHOOK_RANDOM) private readonly random: () => number,
    private readonly clock: Clock,
  ) {}

  /** False when the lease was lost, and then nothing is stored. A manual attempt is never retried. */
  recordAttempt(
    delivery: WebhookDelivery,
    endpoint: WebhookEndpoint,
    result: SendResult,
    manual: boolean,
  ): Promise<boolean> {
    const now = this.clock.nowMs();
    const verdict = { delivered: isSuccess(result), gone: result.statusCode === GONE };
    const retryIn =
      verdict.delivered || verdict.gone || manual ? undefined : this.retryDelay(delivery.attempts + 1, result, now);
    const next: DeliveryState = {
      attempts: delivery.attempts + 1,
      lastStatusCode: result.statusCode ?? null,
      lastError: result.error ?? null,
      status: verdict.delivered ? 'succeeded' : retryIn === undefined ? 'failed' : 'pending',
      nextAttemptAt: retryIn === undefined ? delivery.nextAttemptAt : now + retryIn,
      completedAt: retryIn === undefined ? now : null,
    };
    return this.unitOfWork.run(async ({ manager }) => {
      if (!(await this.deliveries.releaseLease(delivery.id, this.owner, next, manager))) return false;
      await this.attempts.insert(
        {
          deliveryId: delivery.id,
          attemptedAt: now,
          statusCode: result.statusCode ?? null,
          error: result.error ?? null,
          durationMs: result.durationMs,
          responseBody: result.body ?? null,
        },
        manager,
      );
      await this.health.afterAttempt(endpoint, verdict, now, manager);
      return true;
    });
  }

  /** The endpoint was disabled after this delivery was queued: it is kept as skipped, unsent. */
  recordSkipped(delivery: WebhookDelivery): Promise<boolean> {
    const next: DeliveryState = { status: 'skipped', completedAt: this.clock.nowMs() };
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
