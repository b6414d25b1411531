import { Inject, Injectable, Optional } from '@nestjs/common';
import { Clock } from '../../../common/clock.js';
import { FILE_FIELDS_OPTIONS, type ResolvedFileFieldsOptions } from '../../fields/file-fields.options.js';
import { FileStorage, type StoredObject } from '../../storage/file-storage.js';
import { ResumableUploadsRepository } from './resumable-uploads.repository.js';

export interface ResumableSweepReport {
  /** Storage keys of the expired uploads removed (or, in a dry run, that would be). */
  expired: string[];
  /** Unfinished bytes that no upload refers to (left by a crash between the two removals), past the grace period. */
  strays: string[];
}

const BATCH = 500;

/** Removes expired resumable uploads (row and bytes), and unfinished bytes that no upload refers to. */
@Injectable()
export class ResumableSweep {
  constructor(
    private readonly rows: ResumableUploadsRepository,
    private readonly storage: FileStorage,
    @Inject(FILE_FIELDS_OPTIONS) private readonly options: ResolvedFileFieldsOptions,
    @Optional() private readonly clock: Clock = new Clock(),
  ) {}

  async sweep(graceCutoffMs: number, dryRun: boolean): Promise<ResumableSweepReport> {
    const report: ResumableSweepReport = { expired: [], strays: [] };
    const unfinished = this.storage.resumable(this.rows);
    if (!unfinished) return report;
    for (;;) {
      const now = this.clock.nowMs();
      const batch = await this.rows.expired(now, BATCH, now - this.options.resumableUploadLifetimeMs);
      report.expired.push(...batch.map((upload) => upload.storageKey));
      if (dryRun) break;
      for (const upload of batch) {
        // Row first: bytes without a row are swept below, a row without bytes would answer for bytes it lost.
        await this.rows.delete(upload.id);
        await unfinished.abort(upload.storageKey).catch(() => undefined);
      }
      if (batch.length < BATCH) break;
    }
    let old: StoredObject[] = [];
    const settle = async () => {
      const live = await this.rows.existingStorageKeys(old.map((object) => object.key));
      for (const { key } of old.filter((object) => !live.has(object.key))) {
        report.strays.push(key);
        if (!dryRun) await unfinished.abort(key).catch(() => undefined);
      }
      old = [];
    };
    for await (const object of unfinished.list()) {
      if (object.modifiedAt.getTime() <= graceCutoffMs) old.push(object);
      if (old.length >= BATCH) await settle();
    }
    await settle();
    return report;
  }
}
