import { Injectable } from '@nestjs/common';
import { MoreThan, type EntityManager } from 'typeorm';
import type { PendingUpload } from '../../intake/pending/pending-upload.entity.js';
import type { OpenUpload, OpenUploadsOf, PendingUploadKind } from '../../intake/pending/pending-upload-kind.js';
import { StorageMultipart } from '../../intake/s3/storage-multipart.js';
import { FileRecordsRepository } from '../../records/file-records.repository.js';
import { FileStorage } from '../../../storage/file-storage.js';
import { DirectUpload } from './direct-upload.entity.js';
import { DirectUploadsRepository } from './direct-uploads.repository.js';

/** A completion that started before its upload expired is left this long to finish before it is swept. */
const COMPLETION_GRACE_MS = 15 * 60_000;

/**
 * Direct uploads as intake sees them: the open ones count against the limits (their declared size); the
 * pending-uploads sweep ends them once their time ran out: their S3 multipart upload is aborted
 * (dropping the parts sent), an object a completion stored but never recorded is removed, then their row.
 */
@Injectable()
export class DirectPendingUploads implements PendingUploadKind {
  readonly name = 'direct';

  constructor(
    private readonly uploads: DirectUploadsRepository,
    private readonly storage: FileStorage,
    private readonly multipart: StorageMultipart,
    private readonly fileRecords: FileRecordsRepository,
  ) {}

  async open(manager: EntityManager, of: OpenUploadsOf, nowMs: number): Promise<OpenUpload[]> {
    const uploads = await manager.find(DirectUpload, {
      select: { attachmentType: true, attachmentId: true, field: true, subject: true, size: true, expiresAt: true },
      where: { ...of, expiresAt: MoreThan(nowMs) },
    });
    return uploads.map(({ size, ...upload }) => ({ ...upload, bytes: size }));
  }

  expired(nowMs: number, limit: number): Promise<PendingUpload[]> {
    return this.uploads.expired(nowMs, limit, nowMs - COMPLETION_GRACE_MS);
  }

  async dropBytes(pending: PendingUpload): Promise<void> {
    const upload = pending as DirectUpload;
    await this.multipart.uploads?.abort(upload.storageKey, upload.s3UploadId);
    const referenced = await this.fileRecords.existingStorageKeys([upload.storageKey]);
    if (!referenced.has(upload.storageKey)) await this.storage.delete(upload.storageKey);
  }

  deleteRow(id: number, manager: EntityManager): Promise<void> {
    return this.uploads.delete(id, manager);
  }
}
