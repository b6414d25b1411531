import { Injectable, Optional } from '@nestjs/common';
import { Clock } from '../../common/clock.js';
import type { FileRecord } from '../records/file-record.entity.js';
import { FileRecordsRepository } from '../records/file-records.repository.js';
import { FilesError, FilesErrorCode } from '../../errors/files.errors.js';
import { FileUrls } from './file-urls.js';
import { FileVariantSource } from './file-variant-source.js';

/** The query of a signed URL as it arrived: any part of it may be missing, repeated or forged. */
export interface SignedUrlQuery {
  expires?: unknown;
  signature?: unknown;
  variant?: unknown;
}

/** What a valid signed URL serves: the record (with a variant's bytes in place of its own), for so many seconds. */
export interface SignedContent {
  record: FileRecord;
  secondsLeft: number;
}

const EXPIRES = /^\d{1,12}$/;
/** A variant's name in a URL. */
export const VARIANT_NAME = /^[A-Za-z0-9_-]{1,64}$/;

const invalid = () =>
  new FilesError(
    FilesErrorCode.FileUrlInvalid,
    'The URL is not valid: it was altered, or its file was replaced or deleted since it was issued. ' +
      "Take a fresh url from the file's record.",
  );

/** Checks the URLs {@link FileUrls} signs, when they come back without any other credential. */
@Injectable()
export class SignedFileContent {
  constructor(
    private readonly fileRecords: FileRecordsRepository,
    private readonly variants: FileVariantSource,
    private readonly urls: FileUrls,
    @Optional() private readonly clock: Clock = new Clock(),
  ) {}

  /**
   * The bytes a signed URL names. An expired URL is refused before anything is read. Any other URL this service did
   * not sign for the bytes the file has now (altered, or its file replaced or deleted since) is refused alike, so the
   * route tells nothing about which files exist to whoever tries ids.
   */
  async resolve(id: number, query: SignedUrlQuery): Promise<SignedContent> {
    const { expires, signature, variant } = query;
    const wellFormed =
      typeof expires === 'string' &&
      EXPIRES.test(expires) &&
      typeof signature === 'string' &&
      (variant === undefined || (typeof variant === 'string' && VARIANT_NAME.test(variant)));
    if (!wellFormed) throw invalid();
    const secondsLeft = Number(expires) - Math.floor(this.clock.nowMs() / 1000);
    if (secondsLeft <= 0) {
      const at = new Date(Number(expires) * 1000).toISOString();
      throw new FilesError(
        FilesErrorCode.FileUrlExpired,
        `The URL expired at ${at}. Take a fresh url from the file's record.`,
      );
    }
    const record = await this.fileRecords.findById(id);
    if (!record) throw invalid();
    const stored = variant === undefined ? undefined : await this.variants.find(record, variant);
    if (variant !== undefined && !stored) throw invalid();
    const signed = {
      id,
      storageKey: record.storageKey,
      variant: stored && { name: variant as string, storageKey: stored.storageKey },
      expires: Number(expires),
    };
    if (!this.urls.verify(signed, signature)) throw invalid();
    return { record: stored ? { ...record, ...stored } : record, secondsLeft };
  }
}
