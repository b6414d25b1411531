import { jest } from '@jest/globals';
import type { PeriodicJob } from './periodic-job.js';
import { PeriodicRunner } from './periodic-runner.js';

const HOUR = 3_600_000;

function jobOf(overrides: Partial<PeriodicJob> & Pick<PeriodicJob, 'run'>): PeriodicJob {
  return { name: 'sample', owner: 'tests', everyMs: HOUR, atStart: true, ...overrides };
}

describe('PeriodicRunner', () => {
  const warnings = { warn: jest.fn() };
  beforeEach(() => {
    jest.useFakeTimers();
    warnings.warn.mockReset();
  });
  afterEach(() => jest.useRealTimers());

  it('runs at start when the job asks for it, then every interval, until stopped', async () => {
    let runs = 0;
    const runner = new PeriodicRunner(jobOf({ run: () => void runs++ }), warnings);
    runner.start();
    await jest.advanceTimersByTimeAsync(0);
    expect(runs).toBe(1);
    await jest.advanceTimersByTimeAsync(HOUR);
    expect(runs).toBe(2);
    await runner.stop();
    await jest.advanceTimersByTimeAsync(3 * HOUR);
    expect(runs).toBe(2);
  });

  it('waits for the first interval when the job does not run at start, and never with an interval of 0', async () => {
    let runs = 0;
    const later = new PeriodicRunner(jobOf({ atStart: false, everyMs: 60_000, run: () => void runs++ }), warnings);
    later.start();
    await jest.advanceTimersByTimeAsync(59_999);
    expect(runs).toBe(0);
    await jest.advanceTimersByTimeAsync(1);
    expect(runs).toBe(1);
    await later.stop();

    const once = new PeriodicRunner(jobOf({ everyMs: 0, run: () => void runs++ }), warnings);
    once.start();
    await jest.advanceTimersByTimeAsync(10 * HOUR);
    expect(runs).toBe(2);
    await once.stop();
  });

  it('never overlaps a run with itself: a turn due while one is under way is skipped', async () => {
    let started = 0;
    let finish = () => {};
    const runner = new PeriodicRunner(
      jobOf({
        everyMs: 1000,
        run: () => {
          started++;
          return new Promise<void>((resolve) => (finish = resolve));
        },
      }),
      warnings,
    );
    runner.start();
    await jest.advanceTimersByTimeAsync(3500);
    expect(started).toBe(1);
    finish();
    await jest.advanceTimersByTimeAsync(500);
    expect(started).toBe(2);
    finish();
    await runner.stop();
  });

  it('logs a failed run (thrown or rejected) as a warning naming the job, and runs again at the next interval', async () => {
    const failure = new Error('database is down');
    let runs = 0;
    const runner = new PeriodicRunner(
      jobOf({
        name: 'audit-retention',
        owner: 'audit',
        run: () => {
          runs++;
          if (runs === 1) throw failure;
          return Promise.reject(failure);
        },
      }),
      warnings,
    );
    runner.start();
    await jest.advanceTimersByTimeAsync(HOUR);
    expect(runs).toBe(2);
    expect(warnings.warn).toHaveBeenCalledTimes(2);
    expect(warnings.warn).toHaveBeenCalledWith(
      { err: failure, job: 'audit-retention', owner: 'audit' },
      'Background job audit-retention (audit) failed',
    );
    await runner.stop();
  });

  it('on stop, waits for the run under way and starts no other', async () => {
    let finish = () => {};
    let finished = false;
    const runner = new PeriodicRunner(
      jobOf({ run: () => new Promise<void>((resolve) => (finish = resolve)).then(() => void (finished = true)) }),
      warnings,
    );
    runner.start();
    const stopped = runner.stop();
    finish();
    await stopped;
    expect(finished).toBe(true);
    await expect(runner.runNow()).resolves.toBeUndefined();
  });

  it('keeps no process alive: its timer is unref-ed', () => {
    const unref = jest.spyOn(global, 'setInterval');
    const runner = new PeriodicRunner(jobOf({ atStart: false, run: () => undefined }), warnings);
    runner.start();
    const timer = unref.mock.results[0]?.value as NodeJS.Timeout;
    expect(timer.hasRef()).toBe(false);
    void runner.stop();
    unref.mockRestore();
  });
});
