import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { Clock } from '../common/clock.js';
import { auditConfig, type AuditConfig } from './audit.config.js';
import { AuditEventsRepository } from './repositories/audit-events.repository.js';

/** Once an hour is plenty for a retention counted in days. */
const RUN_EVERY_MS = 3_600_000;
/** Rows deleted per statement, so that no sweep holds a long lock or a huge transaction. */
export const AUDIT_SWEEP_BATCH = 1000;
/** Batches per run: a backlog larger than this is finished by the next runs. */
const MAX_BATCHES_PER_RUN = 100;

/** Deletes audit events older than AUDIT_RETENTION: at start, then every hour, in bounded batches. */
@Injectable()
export class AuditRetention implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(AuditRetention.name);
  private timer?: NodeJS.Timeout;
  private running?: Promise<number>;

  constructor(
    private readonly events: AuditEventsRepository,
    @Inject(auditConfig.KEY) private readonly config: AuditConfig,
    private readonly clock: Clock,
  ) {}

  onApplicationBootstrap(): void {
    void this.sweep();
    this.timer = setInterval(() => void this.sweep(), RUN_EVERY_MS);
    this.timer.unref();
  }

  async onModuleDestroy(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }

  /**
   * One run (a run already under way is joined, not doubled): answers how many events were deleted. Never rejects: a
   * database failure is logged as a warning and the next run tries again.
   */
  sweep(): Promise<number> {
    this.running ??= this.deleteExpired()
      .catch((error: unknown) => {
        this.logger.warn({ err: error }, 'Audit retention sweep failed');
        return 0;
      })
      .finally(() => (this.running = undefined));
    return this.running;
  }

  private async deleteExpired(): Promise<number> {
    const before = this.clock.nowMs() - this.config.retentionMs;
    let deleted = 0;
    for (let batch = 0; batch < MAX_BATCHES_PER_RUN; batch++) {
      const count = await this.events.deleteOccurredBefore(before, AUDIT_SWEEP_BATCH);
      deleted += count;
      if (count < AUDIT_SWEEP_BATCH) break;
    }
    if (deleted > 0) this.logger.log({ deleted }, 'Removed audit events past AUDIT_RETENTION');
    return deleted;
  }
}
