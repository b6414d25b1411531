import { Inject, Injectable } from '@nestjs/common';
import { Clock } from '../common/clock.js';
import { UnitOfWork } from '../database/unit-of-work.js';
import { WebhookAttemptsRepository } from './repositories/webhook-attempts.repository.js';
import { webhooksConfig, type WebhooksConfig } from './webhooks.config.js';

/** Removing old attempts is cheap to postpone: once an hour is plenty for a retention counted in days. */
const RUN_EVERY_MS = 3_600_000;

/** Removes attempts older than WEBHOOK_ATTEMPT_RETENTION (deliveries themselves are kept). */
@Injectable()
export class WebhookAttemptRetention {
  private lastRun = 0;

  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly attempts: WebhookAttemptsRepository,
    @Inject(webhooksConfig.KEY) private readonly config: WebhooksConfig,
    private readonly clock: Clock,
  ) {}

  /** Called on every poll; does the work at most once an hour. */
  async removeExpiredAttempts(): Promise<void> {
    const now = this.clock.nowMs();
    if (now - this.lastRun < RUN_EVERY_MS) return;
    this.lastRun = now;
    const before = now - this.config.attemptRetentionMs;
    await this.unitOfWork.run(({ manager }) => this.attempts.deleteAttemptedBefore(before, manager));
  }
}
