import type { PeriodicJob } from './periodic-job.js';

/** What a runner reports a failed run to (a Nest Logger taking pino-style arguments). */
interface JobWarnings {
  warn(fields: object, message: string): void;
}

/**
 * Runs one {@link PeriodicJob} on an unref-ed timer (it never holds the process open): at start when the job asks for
 * it, then every interval. A run still under way when the next is due is not doubled: that turn is skipped.
 */
export class PeriodicRunner {
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private stopped = false;

  constructor(
    readonly job: PeriodicJob,
    private readonly warnings: JobWarnings,
  ) {}

  start(): void {
    if (this.job.atStart) void this.runNow();
    if (this.job.everyMs > 0) {
      this.timer = setInterval(() => void this.runNow(), this.job.everyMs);
      this.timer.unref();
    }
  }

  /** Starts a run unless one is under way (or the runner stopped); never rejects. */
  runNow(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    this.running ??= new Promise((resolve) => resolve(this.job.run()))
      .then(
        () => undefined,
        (error: unknown) => {
          const { name, owner } = this.job;
          this.warnings.warn({ err: error, job: name, owner }, `Background job ${name} (${owner}) failed`);
        },
      )
      .finally(() => (this.running = undefined));
    return this.running;
  }

  /** No run starts any more; resolves once the one under way, if any, has ended. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.running;
  }
}
