/**
 * Values made for one URL window (they hold its URLs), kept for reuse while it lasts: dropped all at once when the
 * window changes or when full. No per-entry eviction, which on a Map costs more than making a value anew.
 */
export class WindowCache<K, V> {
  private entries = new Map<K, V>();
  private window = -1;

  constructor(private readonly limit: number) {}

  /** The entries of the window that starts at `window` (see urlWindow). */
  of(window: number): Map<K, V> {
    if (window !== this.window || this.entries.size >= this.limit) {
      this.entries = new Map();
      this.window = window;
    }
    return this.entries;
  }
}
