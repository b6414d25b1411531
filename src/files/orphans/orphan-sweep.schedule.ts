import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { FILE_FIELDS_OPTIONS, type ResolvedFileFieldsOptions } from '../fields/file-fields.options.js';
import { OrphanSweeper } from './orphan-sweeper.js';

/**
 * Runs the orphan sweeper in the background at start and every `orphanSweepIntervalMs`. A plain timer rather than
 * @nestjs/schedule, so that an application importing the framework needs no scheduler of its own.
 */
@Injectable()
export class OrphanSweepSchedule implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(OrphanSweeper.name);
  private running?: Promise<void>;
  private timer?: NodeJS.Timeout;

  constructor(
    @Inject(FILE_FIELDS_OPTIONS) private readonly options: ResolvedFileFieldsOptions,
    private readonly sweeper: OrphanSweeper,
  ) {}

  onApplicationBootstrap(): void {
    if (!this.options.sweepOrphansInBackground) return;
    this.runInBackground();
    if (this.options.orphanSweepIntervalMs > 0) {
      this.timer = setInterval(() => this.runInBackground(), this.options.orphanSweepIntervalMs);
      this.timer.unref();
    }
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }

  private runInBackground(): void {
    if (this.running) return;
    this.running = this.sweeper
      .sweep()
      .then(
        (report) => {
          const { orphans, expiredDirectUploads, expiredUploads, strayUploadParts } = report;
          if (orphans.length + expiredDirectUploads + expiredUploads.length + strayUploadParts.length > 0) {
            this.logger.log(report, 'Removed orphaned stored objects and expired uploads');
          }
        },
        (error: unknown) => this.logger.warn({ err: error }, 'Orphan sweep failed'),
      )
      .finally(() => (this.running = undefined));
  }
}
