/** A task the service runs by itself, again and again: what it is, whose it is, how often, and one run of it. */
export interface PeriodicJob {
  /** Names the task in logs. */
  name: string;
  /** The feature whose method does the work. */
  owner: string;
  /** Milliseconds from one run's start to the next; 0: only at start. */
  everyMs: number;
  /** Whether a run starts with the application, before the first interval has passed. */
  atStart: boolean;
  /** One run; a rejection is logged as a warning and the next run tries again. */
  run(): Promise<unknown> | void;
}
