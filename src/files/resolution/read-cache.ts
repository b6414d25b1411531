import { Inject, Injectable, SetMetadata } from '@nestjs/common';
import { InjectEntityManager } from '@nestjs/typeorm';
import type { EntityManager } from 'typeorm';
import { DataVersion } from '../../database/data-version.js';
import { FILE_FIELDS_OPTIONS, type ResolvedFileFieldsOptions } from '../file-fields.options.js';
import { FileUrls } from '../urls/file-urls.js';

/** The metadata key that `@CacheableRead()` sets on a handler. */
export const CACHEABLE_READ = 'file-fields:cacheable-read';

/**
 * Marks a GET handler whose answer depends on its URL (path and query string) and on the database alone: not on the
 * caller, the time, headers or anything kept in memory. Its answer, resolved and written as JSON, is kept (see
 * {@link ReadCache}) and sent again for the same URL for as long as the database shows the same data. Guards,
 * middleware and logging still run for every request; the handler, its pipes and the resolution do not.
 */
export const CacheableRead = (): MethodDecorator => SetMetadata(CACHEABLE_READ, true);

/** At most this many answers are kept, whatever their size. */
const MAX_ENTRIES = 4_096;

/** Where a read of one URL starts: the data's version and the URL window then, and the answer kept for both. */
export interface ReadStart {
  key: string;
  /** Undefined: the version could not be told, and the answer will not be kept. */
  version: string | undefined;
  window: number;
  kept: Buffer | undefined;
}

/**
 * The JSON answers of `@CacheableRead()` handlers, by URL, valid for one version of the data (see DataVersion) and
 * one window of file URLs (answers carry signed URLs): a request that finds its URL's answer kept for the version and
 * window of the moment gets those bytes, exactly what the handler would answer, with one look at the version instead
 * of the handler's queries. Everything kept is dropped at once when either changes, so nothing needs to be told of a
 * change, on any instance.
 *
 * An answer is kept only when the version read after it was made is the one read before it (nothing was committed in
 * between, so its queries read that version), and when every file record it shows is final (none with an image
 * variant still being made). Bounded by `readCacheBytes` (0 turns it off) and {@link MAX_ENTRIES}; the oldest answer
 * makes room; one answer takes at most a sixteenth of the bytes.
 */
@Injectable()
export class ReadCache {
  private readonly maxBytes: number;
  private readonly answers = new Map<string, Buffer>();
  private bytes = 0;
  /** The version and window of what {@link answers} holds. */
  private version: string | undefined;
  private window: number | undefined;
  private dataVersionOnce?: DataVersion;

  constructor(
    @InjectEntityManager() private readonly db: EntityManager,
    @Inject(FILE_FIELDS_OPTIONS) options: ResolvedFileFieldsOptions,
    private readonly urls: FileUrls,
  ) {
    this.maxBytes = options.readCacheBytes;
  }

  /** Whether answers are kept at all. */
  get enabled(): boolean {
    return this.maxBytes > 0;
  }

  /** The number of answers kept now. */
  get size(): number {
    return this.answers.size;
  }

  /** Built on first use, once the DataSource is ready. */
  private get dataVersion(): DataVersion {
    return (this.dataVersionOnce ??= new DataVersion(this.db.connection));
  }

  /** The version and window now, and the answer kept for `key` under them, if any. */
  async start(key: string): Promise<ReadStart> {
    const version = await this.dataVersion.current();
    const window = this.urls.window().start;
    if (version === undefined) return { key, version, window, kept: undefined };
    if (version !== this.version || window !== this.window) this.reset(version, window);
    return { key, version, window, kept: this.answers.get(key) };
  }

  /** Keeps `answer` for the start's URL, if the version is still the start's and so is the window. */
  async keep(start: ReadStart, answer: Buffer): Promise<void> {
    if (start.version === undefined || answer.length > this.maxBytes / 16) return;
    const after = await this.dataVersion.current();
    const current = this.version === start.version && this.window === start.window;
    if (after !== start.version || !current || this.urls.window().start !== start.window) return;
    const { key } = start;
    const previous = this.answers.get(key);
    if (previous) {
      this.answers.delete(key);
      this.bytes -= previous.length;
    }
    for (const [oldest, bytes] of this.answers) {
      if (this.bytes + answer.length <= this.maxBytes && this.answers.size < MAX_ENTRIES) break;
      this.answers.delete(oldest);
      this.bytes -= bytes.length;
    }
    this.answers.set(key, answer);
    this.bytes += answer.length;
  }

  private reset(version: string, window: number): void {
    this.answers.clear();
    this.bytes = 0;
    this.version = version;
    this.window = window;
  }
}
