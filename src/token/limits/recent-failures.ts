/**
 * The failure-limiter keys on which this instance has counted a point lately, each until its window has surely
 * passed. A key without a mark has no point counted on it (its counters live in this instance's memory), so a request
 * on unmarked keys needs no counter at all unless it fails. Only meaningful while the counters are this instance's
 * own: with Redis, other instances count too.
 */
export class RecentFailures {
  private readonly until = new Map<string, number>();
  /** The size at which expired marks are next swept, so the map never outgrows what the window holds. */
  private sweepAt = 1024;

  constructor(private readonly windowMs: number) {}

  /** Marks `names` for a window from `now` (epoch ms): a point is about to be counted on them. */
  mark(names: readonly string[], now: number): void {
    for (const name of names) this.until.set(name, now + this.windowMs);
    if (this.until.size >= this.sweepAt) this.sweep(now);
  }

  /** Whether one of `names` may have a point counted on it at `now`. */
  anyOf(names: readonly string[], now: number): boolean {
    for (const name of names) {
      const until = this.until.get(name);
      if (until === undefined) continue;
      if (until > now) return true;
      this.until.delete(name);
    }
    return false;
  }

  private sweep(now: number): void {
    for (const [name, until] of this.until) if (until <= now) this.until.delete(name);
    this.sweepAt = Math.max(1024, this.until.size * 2);
  }
}
