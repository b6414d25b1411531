import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { AppConfig } from '../../config/environment.js';
import { OrphanSweeper } from './orphan-sweeper.js';

const INTERVAL_NAME = 'orphan-sweep';

/** Runs the orphan sweeper in the background at start and every ORPHAN_SWEEP_INTERVAL_SECONDS. */
@Injectable()
export class OrphanSweepSchedule implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(OrphanSweeper.name);
  private running?: Promise<void>;

  constructor(
    private readonly config: AppConfig,
    private readonly sweeper: OrphanSweeper,
    private readonly scheduler: SchedulerRegistry,
  ) {}

  onApplicationBootstrap(): void {
    this.runInBackground();
    if (this.config.orphanSweepIntervalMs > 0) {
      const timer = setInterval(() => this.runInBackground(), this.config.orphanSweepIntervalMs);
      timer.unref();
      this.scheduler.addInterval(INTERVAL_NAME, timer);
    }
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.scheduler.doesExist('interval', INTERVAL_NAME)) this.scheduler.deleteInterval(INTERVAL_NAME);
    await this.running;
  }

  private runInBackground(): void {
    if (this.running) return;
    this.running = this.sweeper
      .sweep()
      .then(
        (report) => {
          if (report.orphans.length > 0) this.logger.log(report, 'Removed orphaned stored objects');
        },
        (error: unknown) => this.logger.warn({ err: error }, 'Orphan sweep failed'),
      )
      .finally(() => (this.running = undefined));
  }
}
