import { Inject, Injectable } from '@nestjs/common';
import { Clock, UnitOfWork } from '@file-fields/nest';
import { WebhookAttemptsRepository } from '../repositories/webhook-attempts.repository.js';
import { WebhookDeliveriesRepository } from '../repositories/webhook-deliveries.repository.js';
import { WebhookEventsRepository } from '../repositories/webhook-events.repository.js';
import { webhooksConfig, type WebhooksConfig } from '../webhooks.config.js';

/** Removing old rows is cheap to postpone: once an hour is plenty for retentions counted in days. */
const RUN_EVERY_MS = 3_600_000;

/**
 * Removes attempts older than WEBHOOK_ATTEMPT_RETENTION, deliveries that finished longer than
 * WEBHOOK_DELIVERY_RETENTION ago, and then the events no delivery refers to that are as old: events hold file records
 * (names, paths, checksums), which must not outlive their use. Pending deliveries and their events are kept.
 */
@Injectable()
export class WebhookRetention {
  private lastRun = 0;

  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly attempts: WebhookAttemptsRepository,
    private readonly deliveries: WebhookDeliveriesRepository,
    private readonly events: WebhookEventsRepository,
    @Inject(webhooksConfig.KEY) private readonly config: WebhooksConfig,
    private readonly clock: Clock,
  ) {}

  /**
   * One run, called by the background jobs on every delivery poll: does the work at most once an hour of the service's
   * clock (so that a clock moved on, as in tests, is followed at the next poll).
   */
  async removeExpired(): Promise<void> {
    const now = this.clock.nowMs();
    if (now - this.lastRun < RUN_EVERY_MS) return;
    this.lastRun = now;
    const attemptsBefore = now - this.config.attemptRetentionMs;
    const deliveriesBefore = now - this.config.deliveryRetentionMs;
    await this.unitOfWork.run(({ manager }) => this.attempts.deleteAttemptedBefore(attemptsBefore, manager));
    await this.unitOfWork.run(async ({ manager }) => {
      await this.deliveries.deleteFinishedBefore(deliveriesBefore, manager);
      await this.events.deleteUnreferencedBefore(deliveriesBefore, manager);
    });
  }
}
