import { Inject, Injectable, Logger } from '@nestjs/common';
import { FILE_FIELDS_OPTIONS, type ResolvedFileFieldsOptions } from '../fields/file-fields.options.js';
import { OrphanSweeper } from './orphan-sweeper.js';

/**
 * Whether and how often the orphan sweeper runs by itself (`sweepOrphansInBackground`, `orphanSweepIntervalMs`), and
 * one such run with its log line. The timer belongs to the application: this service's background jobs run
 * {@link run} at start and every interval; another application importing the framework runs it on its own schedule.
 */
@Injectable()
export class OrphanSweepSchedule {
  private readonly logger = new Logger(OrphanSweeper.name);

  constructor(
    @Inject(FILE_FIELDS_OPTIONS) private readonly options: ResolvedFileFieldsOptions,
    private readonly sweeper: OrphanSweeper,
  ) {}

  /** False where sweeps are only by hand (the sweep command, tests). */
  get inBackground(): boolean {
    return this.options.sweepOrphansInBackground;
  }

  /** Milliseconds between background sweeps; 0: only at start. */
  get everyMs(): number {
    return this.options.orphanSweepIntervalMs;
  }

  /** One sweep; what it removed is logged. A failure rejects (the background job logs it and tries again later). */
  async run(): Promise<void> {
    const report = await this.sweeper.sweep();
    const { orphans, expiredDirectUploads, expiredUploads, strayUploadParts } = report;
    if (orphans.length + expiredDirectUploads + expiredUploads.length + strayUploadParts.length > 0) {
      this.logger.log(report, 'Removed orphaned stored objects and expired uploads');
    }
  }
}
