import { Inject, Injectable, Optional, type OnModuleInit } from '@nestjs/common';
import { Clock } from '../../common/clock.js';
import { dispositionOf } from '../download/content-headers.js';
import { FILE_FIELDS_OPTIONS, type ResolvedFileFieldsOptions } from '../fields/file-fields.options.js';
import type { FileRecord } from '../records/file-record.entity.js';
import { FileStorage, type DirectUrlSigner } from '../../storage/file-storage.js';
import { UrlSigner, urlWindow, type SignedFields, type UrlWindow } from './url-signer.js';

/** What a URL is made of: the record's id and storage key; its type and name give a direct URL its headers. */
export type UrlRecord = Pick<FileRecord, 'id' | 'storageKey'> & Partial<Pick<FileRecord, 'mimeType' | 'originalName'>>;

/** One variant of a record (e.g. an image's thumbnail), stored under a key of its own. */
export interface UrlVariant {
  name: string;
  storageKey: string;
  mimeType?: string;
}

/**
 * URLs of the current window kept for reuse: every response with file records asks for them again, and signing costs
 * many times a lookup (the SDK's S3 presigner most of all).
 */
const CACHE_SIZE = 10_000;

/**
 * The URL of a file's content (or of one of its variants) that works without an Authorization header until it
 * expires: what every file record in a response carries as `url`. In proxy mode (the default) a URL of this service's
 * signed route, HMAC-SHA256 over the file id, storage key, variant and expiry; in direct mode a URL the storage
 * serves itself (an S3 presigned GET URL). Either is issued per window (see {@link urlWindow}), so the same bytes keep
 * the same URL for a while and caches can hold them; bytes replaced under a new storage key get a new URL.
 */
@Injectable()
export class FileUrls implements OnModuleInit {
  private readonly signer: UrlSigner;
  private readonly ttlSeconds: number;
  /** `https://api.example.com/files/`. */
  private readonly base: string;
  /** The URLs of the window that starts at `cacheWindow`, by the bytes they name; dropped all at once. */
  private cache = new Map<string, Promise<string>>();
  private cacheWindow = -1;
  private direct?: DirectUrlSigner;

  constructor(
    @Inject(FILE_FIELDS_OPTIONS) private readonly options: ResolvedFileFieldsOptions,
    private readonly storage: FileStorage,
    @Optional() private readonly clock: Clock = new Clock(),
  ) {
    this.signer = new UrlSigner(options.urlSigningKey);
    this.ttlSeconds = Math.max(1, Math.round(options.urlTtlMs / 1000));
    this.base = `${options.publicUrl.replace(/\/+$/, '')}/files/`;
  }

  /** In direct mode, the storage's own signer: a storage without one (local disk) stops the start. */
  async onModuleInit(): Promise<void> {
    if (this.options.urlMode !== 'direct') return;
    this.direct = await this.storage.directUrls();
    if (!this.direct) throw new Error('Direct file URLs (FILE_URL_MODE=direct) need a storage that signs its own URLs');
  }

  /**
   * The URL of the record's bytes, or of its variant `variant` stored under `variant.storageKey`. Responses asking at
   * once for a URL not signed yet share one signature; a failed one is not kept.
   */
  urlOf(record: UrlRecord, variant?: UrlVariant): Promise<string> {
    const window = this.window();
    if (window.start !== this.cacheWindow || this.cache.size >= CACHE_SIZE) {
      this.cache = new Map();
      this.cacheWindow = window.start;
    }
    const cache = this.cache;
    const key = variant
      ? `${record.id}\n${record.storageKey}\n${variant.name}\n${variant.storageKey}`
      : `${record.id}\n${record.storageKey}`;
    let url = cache.get(key);
    if (url === undefined) {
      url = this.direct
        ? this.directUrl(this.direct, record, variant, window)
        : Promise.resolve(this.proxyUrl(record, variant, window.expires));
      url.catch(() => cache.delete(key));
      cache.set(key, url);
    }
    return url;
  }

  /** The window a URL issued now belongs to: a URL, and whatever holds one, is the same for all of it. */
  window(): UrlWindow {
    return urlWindow(this.clock.nowMs(), this.ttlSeconds);
  }

  /** Whether `signature` is the one this service gave a URL of these bytes, until `fields.expires`. */
  verify(fields: SignedFields, signature: string): boolean {
    return this.signer.verify(fields, signature);
  }

  private proxyUrl(record: UrlRecord, variant: UrlVariant | undefined, expires: number): string {
    const { id, storageKey } = record;
    const signature = this.signer.sign({ id, storageKey, variant, expires });
    const named = variant ? `variant=${encodeURIComponent(variant.name)}&` : '';
    return `${this.base}${id}/signed?${named}expires=${expires}&signature=${signature}`;
  }

  /** The storage's URL, answered with the type and disposition this service would send (it stores neither). */
  private directUrl(signer: DirectUrlSigner, record: UrlRecord, variant: UrlVariant | undefined, window: UrlWindow) {
    const mimeType = variant ? variant.mimeType : record.mimeType;
    return signer.sign(variant?.storageKey ?? record.storageKey, window.start, window.expires - window.start, {
      contentType: mimeType,
      contentDisposition:
        mimeType && record.originalName !== undefined ? dispositionOf(mimeType, record.originalName) : undefined,
      cacheControl: `private, max-age=${this.ttlSeconds}`,
    });
  }
}
