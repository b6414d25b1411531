import { Inject, Injectable } from '@nestjs/common';
import { MoreThan, type EntityManager } from 'typeorm';
import { FILE_FIELDS_OPTIONS, type ResolvedFileFieldsOptions } from '../../../fields/file-fields.options.js';
import type { PendingUpload } from '../../../intake/pending/pending-upload.entity.js';
import type { OpenUpload, OpenUploadsOf, PendingUploadKind } from '../../../intake/pending/pending-upload-kind.js';
import type { StoredObject } from '../../../../storage/file-storage.js';
import { UnfinishedStorage } from '../storage/unfinished-storage.js';
import { ResumableUpload } from './resumable-upload.entity.js';
import { ResumableUploadsRepository } from './resumable-uploads.repository.js';

const BATCH = 500;

/**
 * Resumable uploads as intake sees them: the open ones count against the limits; the pending-uploads sweep ends the
 * expired ones (past their expiry, or their lifetime, and
 * held by no request) lose their unfinished bytes, then their row; unfinished bytes no upload refers to (left by a
 * crash between the two) go once past the grace period.
 */
@Injectable()
export class ResumablePendingUploads implements PendingUploadKind {
  readonly name = 'resumable';

  constructor(
    private readonly rows: ResumableUploadsRepository,
    private readonly unfinished: UnfinishedStorage,
    @Inject(FILE_FIELDS_OPTIONS) private readonly options: ResolvedFileFieldsOptions,
  ) {}

  /** An upload older than its lifetime is expired whatever its row says (a row written before the lifetime). */
  async open(manager: EntityManager, of: OpenUploadsOf, nowMs: number): Promise<OpenUpload[]> {
    const lifetime = this.options.resumableUploadLifetimeMs;
    const uploads = await manager.find(ResumableUpload, {
      select: {
        attachmentType: true,
        attachmentId: true,
        field: true,
        subject: true,
        declaredLength: true,
        expiresAt: true,
        createdAt: true,
      },
      where: { ...of, expiresAt: MoreThan(nowMs), createdAt: MoreThan(nowMs - lifetime) },
    });
    // Its row's expiry may lie past its lifetime (written before RESUMABLE_UPLOAD_LIFETIME was lowered).
    return uploads.map(({ declaredLength, createdAt, expiresAt, ...upload }) => ({
      ...upload,
      bytes: declaredLength,
      expiresAt: Math.min(expiresAt, createdAt + lifetime),
    }));
  }

  async expired(nowMs: number, limit: number): Promise<PendingUpload[]> {
    if (!this.unfinished.storage) return [];
    return this.rows.expired(nowMs, limit, nowMs - this.options.resumableUploadLifetimeMs);
  }

  async dropBytes(upload: PendingUpload): Promise<void> {
    await this.unfinished.storage?.abort(upload.storageKey);
  }

  deleteRow(id: number, manager: EntityManager): Promise<void> {
    return this.rows.delete(id, manager);
  }

  async sweepStrays(graceCutoffMs: number, dryRun: boolean): Promise<string[]> {
    const unfinished = this.unfinished.storage;
    const strays: string[] = [];
    if (!unfinished) return strays;
    let old: StoredObject[] = [];
    const settle = async () => {
      const live = await this.rows.existingStorageKeys(old.map((object) => object.key));
      for (const { key } of old.filter((object) => !live.has(object.key))) {
        strays.push(key);
        if (!dryRun) await unfinished.abort(key).catch(() => undefined);
      }
      old = [];
    };
    for await (const object of unfinished.list()) {
      if (object.modifiedAt.getTime() <= graceCutoffMs) old.push(object);
      if (old.length >= BATCH) await settle();
    }
    await settle();
    return strays;
  }
}
