import { Injectable, Logger, Module, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { periodicJobs } from './periodic-jobs.js';
import { PeriodicRunner } from './periodic-runner.js';

/**
 * Owns the timers of every periodic task (periodic-jobs.ts): started once the application is up, stopped first on
 * shutdown, waiting for the runs under way, so that none meets a closed database. The features only expose methods
 * that do one run.
 */
@Injectable()
class BackgroundJobs implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(BackgroundJobs.name);
  private runners: PeriodicRunner[] = [];

  constructor(private readonly moduleRef: ModuleRef) {}

  onApplicationBootstrap(): void {
    // The features' providers, wherever they are declared: this room imports no feature module.
    const find = <T>(token: string | symbol | (abstract new (...args: never[]) => T)): T =>
      this.moduleRef.get<T>(token, { strict: false });
    this.runners = periodicJobs(find, find).map((job) => new PeriodicRunner(job, this.logger));
    for (const runner of this.runners) runner.start();
  }

  async onModuleDestroy(): Promise<void> {
    await Promise.all(this.runners.map((runner) => runner.stop()));
  }
}

/** The room for background work: one timer per periodic task, for the whole application. */
@Module({ providers: [BackgroundJobs] })
export class BackgroundJobsModule {}
