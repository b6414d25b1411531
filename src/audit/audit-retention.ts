import { Inject, Injectable, Logger } from '@nestjs/common';
import { Clock } from '@file-fields/nest';
import { auditConfig, type AuditConfig } from './audit.config.js';
import { AuditEventsRepository } from './repositories/audit-events.repository.js';

/** Rows deleted per statement, so that no sweep holds a long lock or a huge transaction. */
export const AUDIT_SWEEP_BATCH = 1000;
/** Batches per run: a backlog larger than this is finished by the next runs. */
const MAX_BATCHES_PER_RUN = 100;

/**
 * Deletes audit events older than AUDIT_RETENTION, in bounded batches: one run per call to {@link sweep} (the
 * background jobs run it at start and every hour).
 */
@Injectable()
export class AuditRetention {
  private readonly logger = new Logger(AuditRetention.name);
  private running?: Promise<number>;

  constructor(
    private readonly events: AuditEventsRepository,
    @Inject(auditConfig.KEY) private readonly config: AuditConfig,
    private readonly clock: Clock,
  ) {}

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
