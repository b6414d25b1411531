import { Inject, Injectable, Optional } from '@nestjs/common';
import { Clock } from '../../common/clock.js';
import { FILE_FIELDS_OPTIONS, type ResolvedFileFieldsOptions } from '../fields/file-fields.options.js';
import { FileFieldRegistry } from '../fields/file-field.registry.js';
import { FileRecordsRepository } from '../records/file-records.repository.js';
import { FileStorage, isReservedKey, type StoredObject } from '../../storage/file-storage.js';
import { PendingUploadsSweep } from '../intake/pending/pending-uploads-sweep.js';

export interface SweepOptions {
  /** Report what would be removed without removing it. */
  dryRun?: boolean;
  /** Only objects older than this many milliseconds are considered (default: ORPHAN_GRACE_SECONDS). */
  graceMs?: number;
}

export interface SweepReport {
  scanned: number;
  orphans: string[];
  removed: number;
  failed: number;
  dryRun: boolean;
  /** Direct uploads whose time ran out, ended with their parts (counted only in a dry run). */
  expiredDirectUploads: number;
  /** Resumable uploads past their expiry, removed with their bytes (storage keys). */
  expiredUploads: string[];
  /** Unfinished resumable upload bytes no upload refers to any more. */
  strayUploadParts: string[];
}

const BATCH = 500;

/**
 * Removes stored objects that no record points at (bytes left by a crash between storing and committing, and
 * unfinished temporary files), once they are older than a grace period that covers any upload still in flight, and
 * ends expired direct and resumable uploads (see PendingUploadsSweep). It never deletes a record. Runs at start, on an
 * interval, and by hand
 * (`npm run sweep-orphans`).
 */
@Injectable()
export class OrphanSweeper {
  constructor(
    @Inject(FILE_FIELDS_OPTIONS) private readonly options: ResolvedFileFieldsOptions,
    private readonly storage: FileStorage,
    private readonly fileRecords: FileRecordsRepository,
    private readonly registry: FileFieldRegistry,
    private readonly pending: PendingUploadsSweep,
    // The application's clock when it provides one (tests move it), else the real time.
    @Optional() private readonly clock: Clock = new Clock(),
  ) {}

  async sweep(options: SweepOptions = {}): Promise<SweepReport> {
    const now = this.clock.nowMs();
    const cutoff = now - (options.graceMs ?? this.options.orphanGraceMs);
    const dryRun = options.dryRun ?? false;
    const pending = await this.pending.sweep(cutoff, dryRun);
    const report: SweepReport = {
      ...{ scanned: 0, orphans: [], removed: 0, failed: 0, dryRun },
      expiredDirectUploads: pending.get('direct')?.expired.length ?? 0,
      expiredUploads: pending.get('resumable')?.expired ?? [],
      strayUploadParts: pending.get('resumable')?.strays ?? [],
    };
    let batch: StoredObject[] = [];
    for await (const object of this.storage.list()) {
      report.scanned += 1;
      if (object.modifiedAt.getTime() <= cutoff && this.isOurs(object.key)) batch.push(object);
      if (batch.length >= BATCH) batch = await this.settle(batch, report);
    }
    await this.settle(batch, report);
    return report;
  }

  private async settle(batch: StoredObject[], report: SweepReport): Promise<StoredObject[]> {
    const referenced = await this.fileRecords.existingStorageKeys(batch.map((object) => object.key));
    for (const { key } of batch.filter((object) => !referenced.has(object.key))) {
      report.orphans.push(key);
      if (report.dryRun) continue;
      await this.storage.delete(key).then(
        () => (report.removed += 1),
        () => (report.failed += 1),
      );
    }
    return [];
  }

  /**
   * Only keys this service writes for records (`<attachment type>/<id>/...`): a shared bucket's other objects, and
   * the storage's own reserved objects (the health probe), are left alone.
   */
  private isOurs(key: string): boolean {
    if (isReservedKey(key)) return false;
    const [type, id] = key.split('/');
    return this.registry.get(type) !== undefined && /^[1-9]\d*$/.test(id ?? '');
  }
}
