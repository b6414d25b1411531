interface Entry {
  /** Attempts on the key whose outcome is not known yet. */
  inFlight: number;
  /** Those of them that took no point (checked before any failure was counted on the key). */
  unpaid: number;
  /** Called when one of them settles in a way that may let a waiting attempt in; made when someone waits. */
  listeners?: Set<() => void>;
}

/** Watches keys for settled attempts, from the moment it is created. */
export interface Watch {
  /** Forgets the attempts settled so far. */
  clear(): void;
  /** Whether an attempt on one of `keys` (watched ones) has settled since the last {@link clear}. */
  settledOn(keys: readonly string[]): boolean;
  /** Resolves true once an attempt on a watched key has settled (at once if one has), false after `ms` without. */
  next(ms: number): Promise<boolean>;
  stop(): void;
}

/**
 * The token attempts of this instance whose outcome is not known yet, per failure-limiter key. Their points are
 * taken (or, unpaid, would be on a failure) but may come back (a success gives them back): an attempt refused while
 * they hold the points waits for them to settle rather than be refused for failures that did not happen.
 */
export class InFlightAttempts {
  private readonly entries = new Map<string, Entry>();

  /**
   * Marks an attempt on `keys` as in flight; the function returned settles it, once. `freed`: its points were given
   * back (or never taken), so waiting attempts may now get in; a failure keeps its points, and only the last one in
   * flight on a key wakes them (to be refused).
   */
  enter(keys: readonly string[], unpaid = false): (freed: boolean) => void {
    for (const key of keys) {
      const entry = this.entry(key);
      entry.inFlight += 1;
      if (unpaid) entry.unpaid += 1;
    }
    let settled = false;
    return (freed) => {
      if (settled) return;
      settled = true;
      for (const key of keys) {
        const entry = this.entries.get(key)!;
        entry.inFlight -= 1;
        if (unpaid) entry.unpaid -= 1;
        if (entry.listeners && (freed || entry.inFlight === 0)) for (const listener of entry.listeners) listener();
        this.release(key, entry);
      }
    };
  }

  /** Whether an attempt on `key` is in flight. */
  holds(key: string): boolean {
    return (this.entries.get(key)?.inFlight ?? 0) > 0;
  }

  /** How many attempts on `key` are in flight without a point taken. */
  unpaid(key: string): number {
    return this.entries.get(key)?.unpaid ?? 0;
  }

  watch(keys: readonly string[]): Watch {
    const settled = new Set<string>();
    let wake: (() => void) | undefined;
    const listeners = keys.map((key) => {
      const listener = () => {
        settled.add(key);
        wake?.();
      };
      const entry = this.entry(key);
      (entry.listeners ??= new Set()).add(listener);
      return listener;
    });
    return {
      clear: () => settled.clear(),
      settledOn: (some) => some.some((key) => settled.has(key)),
      next: (ms) => {
        if (settled.size > 0) return Promise.resolve(true);
        return new Promise<boolean>((resolve) => {
          const timer = setTimeout(() => {
            wake = undefined;
            resolve(false);
          }, ms);
          wake = () => {
            clearTimeout(timer);
            wake = undefined;
            resolve(true);
          };
        });
      },
      stop: () => {
        keys.forEach((key, index) => {
          const entry = this.entries.get(key)!;
          entry.listeners?.delete(listeners[index]);
          this.release(key, entry);
        });
      },
    };
  }

  private entry(key: string): Entry {
    let entry = this.entries.get(key);
    if (!entry) this.entries.set(key, (entry = { inFlight: 0, unpaid: 0 }));
    return entry;
  }

  private release(key: string, entry: Entry): void {
    if (entry.inFlight === 0 && !entry.listeners?.size) this.entries.delete(key);
  }
}
