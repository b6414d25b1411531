/** How many variant jobs run and wait, in all and for each requester. */
export interface VariantQueueLimits {
  /** Jobs running at once: each decodes an image, which takes a core and memory up to the decode budget. */
  concurrency: number;
  /** Jobs waiting or running at most; more are left to the next response or request that needs them. */
  maxJobs: number;
  /** Jobs one requester may have waiting or running, out of `maxJobs`. */
  perRequester: number;
}

/**
 * The jobs making image variants, keyed by original: at most one per original (whoever asks for it waits for that
 * one), `concurrency` at a time. Each job is counted against its requester (the principal whose upload or request
 * started it), who holds at most `perRequester` of them, and a freed slot goes to each requester with a waiting job in
 * turn: a principal uploading many large images delays another's variants by one job, not by all of its own.
 */
export class VariantQueue {
  private readonly jobs = new Map<string, Promise<void>>();
  private readonly held = new Map<string, number>();
  /** The starts of waiting jobs by requester, in the order requesters are served next. */
  private readonly waiting = new Map<string, Array<() => void>>();
  private running = 0;

  constructor(private readonly limits: VariantQueueLimits) {}

  /**
   * The job under `id`: the one waiting or running, or else `work` queued for `requester`. `bounded` (a job nobody
   * waits for): undefined instead when the queue is full or the requester holds its share.
   */
  run(id: string, requester: string, work: () => Promise<void>, bounded = false): Promise<void> | undefined {
    const existing = this.jobs.get(id);
    if (existing) return existing;
    const held = this.held.get(requester) ?? 0;
    if (bounded && (this.jobs.size >= this.limits.maxJobs || held >= this.limits.perRequester)) return undefined;
    this.held.set(requester, held + 1);
    const job = this.slot(requester)
      .then(work)
      .finally(() => {
        this.jobs.delete(id);
        const left = (this.held.get(requester) ?? 1) - 1;
        if (left > 0) this.held.set(requester, left);
        else this.held.delete(requester);
        this.passSlot();
      });
    this.jobs.set(id, job);
    return job;
  }

  /** How many jobs are waiting or running. */
  get size(): number {
    return this.jobs.size;
  }

  /** Resolves once no job is waiting or running: those there now, and any queued meanwhile, are done or failed. */
  async settled(): Promise<void> {
    while (this.jobs.size > 0) await Promise.allSettled([...this.jobs.values()]);
  }

  /** Resolves when the requester's job may start. */
  private slot(requester: string): Promise<void> {
    if (this.running < this.limits.concurrency) {
      this.running++;
      return Promise.resolve();
    }
    return new Promise((start) => {
      const queue = this.waiting.get(requester);
      if (queue) queue.push(start);
      else this.waiting.set(requester, [start]);
    });
  }

  /** A job ended: its slot goes to the first requester in turn, who then goes behind the others. */
  private passSlot(): void {
    const next = this.waiting.entries().next();
    if (next.done) {
      this.running--;
      return;
    }
    const [requester, queue] = next.value;
    const start = queue.shift()!;
    this.waiting.delete(requester);
    if (queue.length > 0) this.waiting.set(requester, queue);
    start();
  }
}
