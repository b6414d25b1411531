import { randomBytes } from 'node:crypto';
import { DEFAULT_IMAGE_DECODE_BYTES } from '../images/probe/decode-cost.js';
import type { FileStorage } from '../../storage/file-storage.js';

/** How the file-field framework is set up by the application that imports it. */
export interface FileFieldsOptions {
  /**
   * Where file bytes live: `new LocalDiskStorage(dir)`, an `S3Storage`, or any other {@link FileStorage}. The module
   * closes it when the application shuts down.
   */
  storage: FileStorage;
  /** Largest accepted file in bytes (a field's `maxSize` can only lower it). Default 50 MiB. */
  maxFileSize?: number;
  /** Uploads one caller (`req.user.subject`) may have in flight at once. Default 4. */
  uploadsPerPrincipal?: number;
  /**
   * Bytes of JSON answers kept by handlers marked `@CacheableRead()`, each shown again while the database shows the
   * same data (see ReadCache); 0 keeps none. Default 32 MiB.
   */
  readCacheBytes?: number;
  /**
   * The most memory (bytes) decoding one image for its variants may take, estimated from its header (AVIF, interlaced
   * PNG and progressive JPEG are held whole): a larger one is refused at upload (413), or its variants marked failed.
   * Two variant jobs run at once. Default 256 MiB.
   */
  imageDecodeBytes?: number;
  /** Stored objects without a record are removed once older than this. Default one hour. */
  orphanGraceMs?: number;
  /** How often orphans are swept (also once at start); 0 sweeps only at start and by hand. Default one hour. */
  orphanSweepIntervalMs?: number;
  /**
   * How long a resumable upload lives after its last request; past it, it is gone (410) and the orphan sweeper
   * removes its bytes. Default 24 hours.
   */
  resumableUploadExpiryMs?: number;
  /**
   * How long a resumable upload lives at most from its creation, whatever arrives meanwhile; past it, it is gone as
   * an expired one is. Default 24 hours.
   */
  resumableUploadLifetimeMs?: number;
  /** Unfinished uploads (resumable and direct) one caller may hold open at once; the next gets 429. Default 24. */
  openUploadsPerPrincipal?: number;
  /**
   * Bytes the unfinished uploads of one caller may declare together (a length not declared yet counts as the field's
   * maximum); the upload that would pass it gets 429. Default 20 × maxFileSize.
   */
  openUploadBytesPerPrincipal?: number;
  /** false: orphans are swept only by hand (OrphanSweeper.sweep), never in the background. Default true. */
  sweepOrphansInBackground?: boolean;
  /**
   * The application's public URL (`https://api.example.com`): file records' `url` is absolute on it. Default none:
   * URLs relative to the application's root.
   */
  publicUrl?: string;
  /**
   * The key (at least 32 bytes) that signs file URLs; every instance serving the same files needs the same one.
   * Default: random per process, so URLs work only on the instance that issued them, until it restarts.
   */
  urlSigningKey?: Uint8Array;
  /** How long a file's `url` works at least; the same URL is issued for up to an hour. Default one hour. */
  urlTtlMs?: number;
  /** `proxy`: URLs of the signed route; `direct`: the storage's own (S3 presigned URLs). Default `proxy`. */
  urlMode?: 'proxy' | 'direct';
  /** How long a direct upload's part URLs work and the upload waits for its completion. Default one hour. */
  directUploadTtlMs?: number;
}

export type ResolvedFileFieldsOptions = Required<FileFieldsOptions>;

export const FILE_FIELDS_OPTIONS = Symbol('FILE_FIELDS_OPTIONS');

const HOUR_MS = 3_600_000;

/** The options with every default applied, in one place. */
export function resolveFileFieldsOptions(options: FileFieldsOptions): ResolvedFileFieldsOptions {
  return {
    storage: options.storage,
    maxFileSize: options.maxFileSize ?? 52_428_800,
    uploadsPerPrincipal: options.uploadsPerPrincipal ?? 4,
    readCacheBytes: options.readCacheBytes ?? 33_554_432,
    imageDecodeBytes: options.imageDecodeBytes ?? DEFAULT_IMAGE_DECODE_BYTES,
    orphanGraceMs: options.orphanGraceMs ?? HOUR_MS,
    orphanSweepIntervalMs: options.orphanSweepIntervalMs ?? HOUR_MS,
    resumableUploadExpiryMs: options.resumableUploadExpiryMs ?? 24 * HOUR_MS,
    resumableUploadLifetimeMs: options.resumableUploadLifetimeMs ?? 24 * HOUR_MS,
    openUploadsPerPrincipal: options.openUploadsPerPrincipal ?? 24,
    openUploadBytesPerPrincipal: options.openUploadBytesPerPrincipal ?? 20 * (options.maxFileSize ?? 52_428_800),
    sweepOrphansInBackground: options.sweepOrphansInBackground ?? true,
    publicUrl: options.publicUrl ?? '',
    urlSigningKey: options.urlSigningKey ?? randomBytes(32),
    urlTtlMs: options.urlTtlMs ?? HOUR_MS,
    urlMode: options.urlMode ?? 'proxy',
    directUploadTtlMs: options.directUploadTtlMs ?? HOUR_MS,
  };
}
