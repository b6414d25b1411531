import type { DataSource } from 'typeorm';
import { DataVersion } from './data-version.js';

/** At most this many answers are kept, whatever their size. */
const MAX_ENTRIES = 4_096;

/**
 * The key of a kept answer: the handler (see {@link CacheableRead}), the caller's permission set, and the URL, so that
 * an answer is never shown to a caller with other permissions than the one it was made for.
 */
export function readKey(handler: string, permissions: readonly string[] | undefined, url: string): string {
  return `${handler}\n${[...(permissions ?? [])].sort().join(' ')}\n${url}`;
}

/** Where a read of one key starts: the data's version and the epoch then, and the answer kept for both. */
export interface ReadStart {
  key: string;
  /** Undefined: the version could not be told, and the answer will not be kept. */
  version: string | undefined;
  epoch: number;
  kept: string | undefined;
}

/** What the health document shows: answers sent again, answers made anew, and times every answer was dropped. */
export interface ReadCacheStats {
  hits: number;
  misses: number;
  flushes: number;
}

/**
 * JSON answers by key (see {@link readKey}), valid for one version of the data (see DataVersion) and one epoch (what
 * else the answers depend on: the window of the signed file URLs they carry): a request that finds its key's answer
 * kept for the version and epoch of the moment gets that text, with one look at the version instead of the handler's
 * queries. Everything kept is dropped at once when either changes, so nothing needs to be told of a change, on any
 * instance. Only writes to the tables answers are made from change the version (see countChangesOf); the service's
 * own bookkeeping (audit rows, webhook attempts, `last_used_at`) does not.
 *
 * An answer is kept only when the version read after it was made is the one read before it (nothing was committed in
 * between, so its queries read that version). Bounded by `maxBytes` of UTF-8 (0 turns it off) and {@link MAX_ENTRIES};
 * the oldest answer makes room; one answer takes at most a sixteenth of the bytes.
 */
export class ReadCache {
  private readonly answers = new Map<string, { text: string; bytes: number }>();
  private bytes = 0;
  /** The version and epoch of what {@link answers} holds. */
  private version: string | undefined;
  private epoch: number | undefined;
  private dataVersionOnce?: DataVersion;
  private readonly counts: ReadCacheStats = { hits: 0, misses: 0, flushes: 0 };

  /** `epoch`: see the class; the DataSource's version is read on first use, once it is ready. */
  constructor(
    private readonly dataSource: DataSource,
    private readonly maxBytes: number,
    private readonly epochNow: () => number = () => 0,
  ) {}

  /** Whether answers are kept at all. */
  get enabled(): boolean {
    return this.maxBytes > 0;
  }

  /** The number of answers kept now. */
  get size(): number {
    return this.answers.size;
  }

  stats(): ReadCacheStats {
    return { ...this.counts };
  }

  private get dataVersion(): DataVersion {
    return (this.dataVersionOnce ??= new DataVersion(this.dataSource));
  }

  /** The version and epoch now, and the answer kept for `key` under them, if any. */
  async start(key: string): Promise<ReadStart> {
    const version = await this.dataVersion.current();
    const epoch = this.epochNow();
    let kept: string | undefined;
    if (version !== undefined) {
      if (version !== this.version || epoch !== this.epoch) this.reset(version, epoch);
      kept = this.answers.get(key)?.text;
    }
    if (kept === undefined) this.counts.misses++;
    else this.counts.hits++;
    return { key, version, epoch, kept };
  }

  /** Keeps `text` for the start's key, if the version is still the start's and so is the epoch. */
  async keep(start: ReadStart, text: string): Promise<void> {
    const bytes = Buffer.byteLength(text);
    if (start.version === undefined || bytes > this.maxBytes / 16) return;
    const after = await this.dataVersion.current();
    const current = this.version === start.version && this.epoch === start.epoch;
    if (after !== start.version || !current || this.epochNow() !== start.epoch) return;
    const previous = this.answers.get(start.key);
    if (previous) {
      this.answers.delete(start.key);
      this.bytes -= previous.bytes;
    }
    for (const [oldest, answer] of this.answers) {
      if (this.bytes + bytes <= this.maxBytes && this.answers.size < MAX_ENTRIES) break;
      this.answers.delete(oldest);
      this.bytes -= answer.bytes;
    }
    this.answers.set(start.key, { text, bytes });
    this.bytes += bytes;
  }

  private reset(version: string, epoch: number): void {
    if (this.answers.size > 0) this.counts.flushes++;
    this.answers.clear();
    this.bytes = 0;
    this.version = version;
    this.epoch = epoch;
  }
}
