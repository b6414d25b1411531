import { Inject, Injectable, Optional } from '@nestjs/common';
import { createHash } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import { InjectEntityManager } from '@nestjs/typeorm';
import { Clock } from '../../../common/clock.js';
import { UnitOfWork } from '../../../database/unit-of-work.js';
import { AttachmentOwners, type ResolvedField } from '../../fields/attachment-owners.js';
import { fileFieldRules } from '../../fields/file-field-rules.js';
import { FILE_FIELDS_OPTIONS, type ResolvedFileFieldsOptions } from '../../fields/file-fields.options.js';
import { FilesError, FilesErrorCode } from '../../../errors/files.errors.js';
import { FileRecordsRepository } from '../../records/file-records.repository.js';
import {
  PENDING_UPLOAD_KINDS,
  type OpenUpload,
  type OpenUploadsOf,
  type PendingUploadKind,
} from '../pending/pending-upload-kind.js';

/** A new unfinished upload (resumable or direct) asking to be opened. */
export interface UploadClaim {
  resolved: ResolvedField;
  /** The principal opening it. */
  subject: string;
  /** Its declared length, or null when the client has not said it yet (it counts as the field's maximum). */
  bytes: number | null;
}

/** Separates these advisory locks from any other the database may take. */
const LOCK_NAMESPACE = 'files:upload-admission:';

/**
 * Decides whether a principal may open one more unfinished upload (tus, the IETF draft, direct to S3): it holds at
 * most OPEN_UPLOADS_PER_PRINCIPAL of them, declaring at most OPEN_UPLOAD_BYTES_PER_PRINCIPAL together (429 with
 * Retry-After), and a field's room counts the uploads under way into it (409 field-full): a single field takes one,
 * a multi field maxCount less its files. Open means neither completed, cancelled nor expired.
 */
@Injectable()
export class UploadAdmission {
  constructor(
    @Inject(FILE_FIELDS_OPTIONS) private readonly options: ResolvedFileFieldsOptions,
    @Inject(PENDING_UPLOAD_KINDS) private readonly kinds: PendingUploadKind[],
    @InjectEntityManager() private readonly db: EntityManager,
    private readonly unitOfWork: UnitOfWork,
    private readonly owners: AttachmentOwners,
    private readonly fileRecords: FileRecordsRepository,
    @Optional() private readonly clock: Clock = new Clock(),
  ) {}

  /** The same checks without locks: before work that costs (an S3 multipart upload), which admit then confirms. */
  async precheck(claim: UploadClaim): Promise<void> {
    await this.assertAdmissible(this.db, claim);
  }

  /**
   * Checks the claim and, if it is admitted, runs `open` (the insert of the upload's row) in the same transaction,
   * so that concurrent creations cannot both pass: the owner's row is locked first (as every change to its files
   * does: owner row, then files), then the principal (an advisory lock on PostgreSQL; SQLite runs one transaction
   * at a time).
   */
  admit<T>(claim: UploadClaim, open: (manager: EntityManager) => Promise<T>): Promise<T> {
    const { owner, slot } = claim.resolved;
    return this.unitOfWork.run(async (tx) => {
      await this.owners.lockExisting(tx, owner, slot.attachmentId);
      if (tx.supportsRowLocks) {
        await tx.manager.query('SELECT pg_advisory_xact_lock($1)', [principalLockKey(claim.subject)]);
      }
      await this.assertAdmissible(tx.manager, claim);
      return open(tx.manager);
    });
  }

  private async assertAdmissible(manager: EntityManager, claim: UploadClaim): Promise<void> {
    await this.assertPrincipalRoom(manager, claim);
    await this.assertFieldRoom(manager, claim);
  }

  private async assertPrincipalRoom(manager: EntityManager, { resolved, subject, bytes }: UploadClaim): Promise<void> {
    const open = await this.openUploads(manager, { subject });
    const { openUploadsPerPrincipal: maxCount, openUploadBytesPerPrincipal: maxBytes } = this.options;
    const declared = open.reduce((sum, upload) => sum + this.bytesOf(upload), 0);
    const adding = bytes ?? fileFieldRules(resolved.field, this.options.maxFileSize).maxSize;
    if (open.length < maxCount && declared + adding <= maxBytes) return;
    const detail =
      open.length >= maxCount
        ? `This client already holds ${open.length} unfinished uploads, the most it may; finish or cancel one.`
        : `This client's unfinished uploads declare ${declared} bytes; ${adding} more would pass the ${maxBytes} ` +
          'it may hold; finish or cancel one.';
    const error = new FilesError(FilesErrorCode.TooManyOpenUploads, detail);
    // The soonest time one of them frees its slot by itself: when it expires.
    const soonest = Math.min(...open.map((upload) => upload.expiresAt));
    const seconds = Number.isFinite(soonest) ? Math.ceil((soonest - this.clock.nowMs()) / 1000) : 1;
    error.headers['Retry-After'] = String(Math.max(1, seconds));
    throw error;
  }

  private async assertFieldRoom(manager: EntityManager, { resolved: { field, slot } }: UploadClaim): Promise<void> {
    if (field.multi && field.maxCount === undefined) return;
    const open = await this.openUploads(manager, slot);
    if (!field.multi) {
      if (open.length === 0) return;
      throw new FilesError(
        FilesErrorCode.FieldFull,
        `An upload to "${slot.field}" is already under way; a single field takes one at a time. Finish or cancel it.`,
      );
    }
    const files = await this.fileRecords.countInField(slot, manager);
    if (files + open.length + 1 <= field.maxCount!) return;
    throw new FilesError(
      FilesErrorCode.FieldFull,
      `"${slot.field}" holds ${files} of at most ${field.maxCount} files, and ${open.length} uploads to it are ` +
        'under way; one more does not fit.',
    );
  }

  /** The unfinished uploads of every kind (resumable, direct) matching `of` that have not expired. */
  private async openUploads(manager: EntityManager, of: OpenUploadsOf): Promise<OpenUpload[]> {
    const now = this.clock.nowMs();
    const open: OpenUpload[] = [];
    // One after the other: in a transaction they all go through its one connection anyway.
    for (const kind of this.kinds) open.push(...(await kind.open(manager, of, now)));
    return open;
  }

  /** What an open upload may still become: its declared length, else its field's maximum. */
  private bytesOf(upload: OpenUpload): number {
    if (upload.bytes !== null) return upload.bytes;
    try {
      const { field } = this.owners.resolveField(upload.attachmentType, upload.attachmentId, upload.field);
      return fileFieldRules(field, this.options.maxFileSize).maxSize;
    } catch {
      return this.options.maxFileSize;
    }
  }
}

/** A 64-bit advisory lock key per principal (a collision only makes two principals wait for each other). */
function principalLockKey(subject: string): string {
  return createHash('sha256')
    .update(LOCK_NAMESPACE + subject)
    .digest()
    .readBigInt64BE(0)
    .toString();
}
