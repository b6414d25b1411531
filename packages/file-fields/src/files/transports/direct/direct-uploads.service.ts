import { Inject, Injectable, Optional } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { Principal } from '../../../auth/principal.js';
import { Clock } from '../../../common/clock.js';
import { FilesService, type UploadResult } from '../../attach/files.service.js';
import { FileStorage } from '../../../storage/file-storage.js';
import { storageFault } from '../../../errors/files.errors.js';
import { FILE_FIELDS_OPTIONS, type ResolvedFileFieldsOptions } from '../../fields/file-fields.options.js';
import { FieldAdmission, type UploadTarget } from '../../intake/admission/field-admission.js';
import { UploadAdmission } from '../../intake/admission/open-upload-limits.js';
import { UploadSlots } from '../../intake/admission/upload-slots.js';
import { sanitizeName } from '../../intake/inspection/file-name.js';
import { UploadInspection } from '../../intake/inspection/upload-inspection.js';
import { assertMayWrite, ownPendingUpload } from '../../intake/pending/pending-upload-owner.js';
import { newUploadId } from '../../intake/pending/upload-id.js';
import type { MultipartUploads, UploadedPart } from '../../intake/s3/multipart-uploads.js';
import { StorageMultipart } from '../../intake/s3/storage-multipart.js';
import type { DirectUpload } from './direct-upload.entity.js';
import { MAX_PARTS, type DirectUploadDto, type StartDirectUploadDto } from './direct-upload.dto.js';
import { DirectUploadError, DirectUploadErrorCode, directUploadNotFound } from './direct-upload.errors.js';
import { DirectUploadsRepository } from './direct-uploads.repository.js';
import { assertEveryPart, partsRefusedBy } from './part-list.js';

/** Parts of 8 MiB (S3 takes at least 5 MiB but for the last), larger when a file would need more than 10,000. */
const MIN_PART_SIZE = 8 * 1024 * 1024;

/**
 * Uploads whose bytes go from the client straight to S3 through presigned part URLs; the service checks the field's
 * rules before it hands the URLs out and again on the stored object, and only then records the file.
 */
@Injectable()
export class DirectUploadsService {
  constructor(
    @Inject(FILE_FIELDS_OPTIONS) private readonly options: ResolvedFileFieldsOptions,
    private readonly fields: FieldAdmission,
    private readonly files: FilesService,
    private readonly storage: FileStorage,
    private readonly multipartUploads: StorageMultipart,
    private readonly uploads: DirectUploadsRepository,
    private readonly inspection: UploadInspection,
    private readonly slots: UploadSlots,
    private readonly admission: UploadAdmission,
    @Optional() private readonly clock: Clock = new Clock(),
  ) {}

  /**
   * Checks what can be checked before a byte is sent (size 413, type 415, the field's room 409, the principal's
   * unfinished uploads 429), then starts the upload.
   */
  async start(target: UploadTarget, principal: Principal, file: StartDirectUploadDto): Promise<DirectUploadDto> {
    const multipart = this.multipart();
    const { attachmentType, attachmentId, fieldName } = target;
    const name = sanitizeName(file.filename);
    const resolved = await this.fields.admit(target, { name, size: file.size, type: file.content_type });
    const claim = { resolved, subject: principal.subject, bytes: file.size };
    // Before S3 is asked for anything; confirmed under lock with the insert below.
    await this.admission.precheck(claim);
    const { id, hash } = newUploadId();
    const storageKey = `${attachmentType}/${attachmentId}/${randomUUID()}`;
    const partSize = Math.max(MIN_PART_SIZE, Math.ceil(file.size / MAX_PARTS));
    const now = this.clock.nowMs();
    const expiresAt = now + this.options.directUploadTtlMs;
    const s3UploadId = await multipart.create(storageKey).catch(rethrowStorageFault);
    try {
      const row = {
        idHash: hash,
        attachmentType,
        attachmentId,
        field: fieldName,
        subject: principal.subject,
        storageKey,
        s3UploadId,
        size: file.size,
        partSize,
        contentType: file.content_type,
        filename: name,
        createdAt: now,
        expiresAt,
      };
      await this.admission.admit(claim, (manager) => this.uploads.insert(row, manager));
      const expiresIn = Math.floor(this.options.directUploadTtlMs / 1000);
      const parts = await multipart.presignParts(storageKey, s3UploadId, file.size, partSize, expiresIn);
      return {
        id,
        part_size: partSize,
        parts: parts.map(({ partNumber, url, size }) => ({ part_number: partNumber, url, size })),
        complete_url: `${this.options.publicUrl}/files/direct-uploads/${id}/complete`,
        expires_at: new Date(expiresAt).toISOString(),
      };
    } catch (error) {
      await multipart.abort(storageKey, s3UploadId).catch(() => undefined);
      throw storageFault(error) ?? error;
    }
  }

  /**
   * Joins the parts, then judges the stored object like an upload through the service: its size must be the declared
   * one (422), its sniffed type accepted (415), an image within the field's limits (413). A refused object is deleted;
   * an accepted one is recorded as an upload is. Either way the upload is over; only a wrong part list may be resent.
   */
  async complete(id: string, principal: Principal, parts: UploadedPart[]): Promise<UploadResult> {
    const upload = await this.ownUpload(id, principal);
    assertMayWrite(upload, principal);
    assertEveryPart(upload, parts);
    // Checking reads the object back (its first bytes, then all of it for the checksum): one of the caller's slots.
    const release = this.slots.acquire(principal.subject);
    try {
      await this.claim(upload);
      await this.joinParts(upload, parts);
      return await this.record(upload, principal);
    } finally {
      release();
    }
  }

  /** Checks the joined object and records it, or deletes it; either way the upload is forgotten. */
  private async record(upload: DirectUpload, principal: Principal): Promise<UploadResult> {
    try {
      const stored = await this.multipart().sizeOf(upload.storageKey);
      if (stored !== upload.size) {
        throw new DirectUploadError(
          DirectUploadErrorCode.SizeMismatch,
          `The parts hold ${stored ?? 0} bytes; the upload declared ${upload.size}. Nothing was kept.`,
        );
      }
      const resolved = this.fields.resolve({ ...upload, fieldName: upload.field });
      const part = await this.inspection.storedObject(upload.storageKey, upload.size, resolved.field, upload.filename);
      return await this.files.attach(resolved, principal, [{ ...part, originalName: upload.filename }], (tx) =>
        this.uploads.delete(upload.id, tx.manager),
      );
    } catch (error) {
      // Left behind when the storage fails now, the row and object go with the expired uploads' sweep.
      await this.forget(upload, 'object').catch(() => undefined);
      throw storageFault(error) ?? error;
    }
  }

  /** Ends the upload and drops its parts; refused while a completion runs (409). */
  async cancel(id: string, principal: Principal): Promise<void> {
    const upload = await this.ownUpload(id, principal);
    await this.claim(upload);
    try {
      await this.forget(upload, 'parts');
    } catch (error) {
      await this.uploads.release(upload.id);
      throw error;
    }
  }

  private multipart(): MultipartUploads {
    const multipart = this.multipartUploads.uploads;
    if (multipart) return multipart;
    throw new DirectUploadError(
      DirectUploadErrorCode.Unavailable,
      'This service stores files on local disk: upload through POST /files/{attachmentType}/{attachmentId}/' +
        '{fieldName} (multipart/form-data) instead.',
    );
  }

  /** The principal's own upload that has not expired; anything else is 404 alike. */
  private async ownUpload(id: string, principal: Principal): Promise<DirectUpload> {
    const upload = await ownPendingUpload(this.uploads, id, principal);
    if (!upload || upload.expiresAt <= this.clock.nowMs()) {
      throw directUploadNotFound();
    }
    return upload;
  }

  private async claim(upload: DirectUpload): Promise<void> {
    if (!(await this.uploads.claim(upload.id, this.clock.nowMs()))) {
      throw new DirectUploadError(DirectUploadErrorCode.Completing, 'Another request is completing this upload.');
    }
  }

  private async joinParts(upload: DirectUpload, parts: UploadedPart[]): Promise<void> {
    try {
      await this.multipart().complete(upload.storageKey, upload.s3UploadId, parts);
    } catch (error) {
      const refused = partsRefusedBy(error);
      if (refused) {
        await this.uploads.release(upload.id);
        throw refused;
      }
      if ((error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404) {
        await this.uploads.delete(upload.id);
        throw directUploadNotFound();
      }
      await this.uploads.release(upload.id);
      throw storageFault(error) ?? error;
    }
  }

  /** Drops what the upload left in the storage (its parts, or the object they became) and its row. */
  private async forget(upload: DirectUpload, left: 'parts' | 'object'): Promise<void> {
    await (
      left === 'parts'
        ? this.multipart().abort(upload.storageKey, upload.s3UploadId)
        : this.storage.delete(upload.storageKey)
    ).catch(rethrowStorageFault);
    await this.uploads.delete(upload.id);
  }
}

function rethrowStorageFault(error: unknown): never {
  throw storageFault(error) ?? error;
}
