import { Injectable } from '@nestjs/common';
import { FileRecordsRepository } from '../records/file-records.repository.js';
import { FileStorage } from '../storage/file-storage.js';
import { DirectUploadsRepository } from './direct-uploads.repository.js';

const BATCH = 100;
/** A completion that started before its upload expired is left this long to finish before it is swept. */
const COMPLETION_GRACE_MS = 15 * 60_000;

/**
 * Ends direct uploads whose time ran out: aborts their S3 multipart upload (dropping the parts sent), removes an
 * object a completion stored but never recorded, and forgets them. The orphan sweeper runs it.
 */
@Injectable()
export class DirectUploadsSweeper {
  constructor(
    private readonly uploads: DirectUploadsRepository,
    private readonly storage: FileStorage,
    private readonly fileRecords: FileRecordsRepository,
  ) {}

  /** How many expired uploads were ended (`dryRun`: are due, up to a batch); one the storage fails stays for the next run. */
  async sweepExpired(now: number, dryRun = false): Promise<number> {
    const multipart = this.storage.directMultipart();
    let swept = 0;
    for (;;) {
      const batch = await this.uploads.expired(now, BATCH);
      const due = batch.filter((upload) => (upload.completingAt ?? 0) <= now - COMPLETION_GRACE_MS);
      if (dryRun) return due.length;
      let ended = 0;
      for (const upload of due) {
        try {
          await multipart?.abort(upload.storageKey, upload.s3UploadId);
          const referenced = await this.fileRecords.existingStorageKeys([upload.storageKey]);
          if (!referenced.has(upload.storageKey)) await this.storage.delete(upload.storageKey);
          await this.uploads.delete(upload.id);
          ended += 1;
        } catch {
          // The storage is failing: the upload stays expired, and the next sweep tries again.
        }
      }
      swept += ended;
      // Stop when a batch ended none (all failing or still completing): the next one would be the same.
      if (batch.length < BATCH || ended === 0) return swept;
    }
  }
}
