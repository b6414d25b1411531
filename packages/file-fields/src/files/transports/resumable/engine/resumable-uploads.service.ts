import { Inject, Injectable, Optional } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { Principal } from '../../../../auth/principal.js';
import { Clock } from '../../../../common/clock.js';
import { DomainError } from '../../../../errors/domain-error.js';
import type { ResolvedField } from '../../../fields/attachment-owners.js';
import { FILE_FIELDS_OPTIONS, type ResolvedFileFieldsOptions } from '../../../fields/file-fields.options.js';
import { FieldAdmission, type UploadTarget } from '../../../intake/admission/field-admission.js';
import { UploadAdmission } from '../../../intake/admission/open-upload-limits.js';
import { UploadSlots } from '../../../intake/admission/upload-slots.js';
import { assertMayWrite, ownPendingUpload } from '../../../intake/pending/pending-upload-owner.js';
import { newUploadId } from '../../../intake/pending/upload-id.js';
import type { ResumableUpload } from '../state/resumable-upload.entity.js';
import { ResumableUploadsRepository } from '../state/resumable-uploads.repository.js';
import type { ResumableStorage } from '../storage/resumable-storage.js';
import { UnfinishedStorage } from '../storage/unfinished-storage.js';
import { ResumableError, ResumableErrorCode, uploadNotFound } from '../resumable.errors.js';
import { AppendRun, type AppendRequest, type AppendResult } from './append-run.js';
import { isExpired, uploadExpiry } from './upload-expiry.js';
import { HashCarry } from './hash-carry.js';
import { UploadCompletion } from './upload-completion.js';
import { UploadLease } from './upload-lease.js';

/** The protocol an upload was created with, in which its resource answers from then on. */
export type ResumableProtocol = 'tus' | 'draft';

export interface CreateRequest {
  protocol: ResumableProtocol;
  /** The whole file's length, or null when the client will say it later. */
  length: number | null;
  originalName: string;
  /** The protocol's metadata as the client sent it, shown back when it asks. */
  metadata: string | null;
}

/**
 * The resumable upload engine that every protocol adapter (tus, the IETF draft) drives: create an upload for a field,
 * append to it at its offset, read its state, cancel it; it completes into a file record once its bytes are in. The
 * field's rules hold as for a multipart upload, before the bytes they concern are stored.
 */
@Injectable()
export class ResumableUploads {
  constructor(
    @Inject(FILE_FIELDS_OPTIONS) private readonly options: ResolvedFileFieldsOptions,
    private readonly fields: FieldAdmission,
    private readonly rows: ResumableUploadsRepository,
    private readonly storage: UnfinishedStorage,
    private readonly slots: UploadSlots,
    private readonly hashes: HashCarry,
    private readonly completion: UploadCompletion,
    private readonly admission: UploadAdmission,
    @Optional() private readonly clock: Clock = new Clock(),
  ) {}

  /** The largest upload any field takes. */
  get maxSize(): number {
    return this.options.maxFileSize;
  }

  /**
   * 404 for an unknown field or entity, 413 for a length over the field's limit, 409 for a field without room (its
   * files and the uploads under way into it), 429 when the principal holds its most unfinished uploads.
   */
  async create(
    target: UploadTarget,
    principal: Principal,
    request: CreateRequest,
  ): Promise<{ id: string; upload: ResumableUpload }> {
    this.unfinished(); // 501 before anything else when the storage keeps no unfinished uploads
    const { attachmentType, attachmentId, fieldName } = target;
    const resolved = await this.fields.admit(target, { name: request.originalName, size: request.length });
    const { id, hash } = newUploadId();
    const now = this.clock.nowMs();
    const claim = { resolved, subject: principal.subject, bytes: request.length };
    const upload = await this.admission.admit(claim, (manager) =>
      this.rows.insert(
        {
          idHash: hash,
          attachmentType,
          attachmentId,
          field: fieldName,
          subject: principal.subject,
          protocol: request.protocol,
          declaredLength: request.length,
          offset: 0,
          originalName: request.originalName,
          metadata: request.metadata,
          mimeType: null,
          storageKey: `${attachmentType}/${attachmentId}/${randomUUID()}`,
          createdAt: now,
          expiresAt: uploadExpiry(this.options, now, now),
        },
        manager,
      ),
    );
    return { id, upload };
  }

  /**
   * The protocol the principal's own upload behind this id was created with; undefined for any other id (whoever
   * answers then says what it says to an unknown upload).
   */
  async protocolOf(id: string, principal: Principal): Promise<ResumableProtocol | undefined> {
    return (await ownPendingUpload(this.rows, id, principal))?.protocol;
  }

  /**
   * The upload behind an id, for its creator while it holds `<type>:write` (403 once it lost it); 404 for anyone
   * else and for an unknown id, 410 once it expired.
   */
  async find(id: string, principal: Principal): Promise<ResumableUpload> {
    const upload = await ownPendingUpload(this.rows, id, principal);
    if (!upload) throw uploadNotFound();
    assertMayWrite(upload, principal);
    if (isExpired(this.options, upload, this.clock.nowMs())) {
      throw new ResumableError(ResumableErrorCode.UploadExpired, 'The upload expired; start a new one.');
    }
    return upload;
  }

  /** Appends one request's body at its offset, within one of the principal's upload slots (429 when none is left). */
  async append(upload: ResumableUpload, principal: Principal, request: AppendRequest): Promise<AppendResult> {
    const release = this.slots.acquire(principal.subject);
    try {
      const resolved = this.resolve(upload);
      const unfinished = this.unfinished();
      const lease = await UploadLease.take(this.rows, this.clock, upload.id);
      try {
        const run = new AppendRun(unfinished, this.rows, this.hashes, this.clock, this.options, lease);
        const result = await run.append(upload, resolved, request);
        if (!result.complete) return result;
        // Still under the lease, renewed while the file is checked: no other request can complete it twice.
        const { records, created } = await this.completion.complete(unfinished, result.upload, resolved, principal);
        return { ...result, record: records[0], created };
      } finally {
        lease.end();
      }
    } finally {
      release();
    }
  }

  /**
   * Appends the body of the request that created the upload. A body refused (more bytes than the declared length, a
   * field's rule) undoes the creation, so that a bad request changes nothing; one that broke off keeps the upload, to
   * be resumed.
   */
  async appendCreating(upload: ResumableUpload, principal: Principal, request: AppendRequest): Promise<AppendResult> {
    try {
      return await this.append(upload, principal, request);
    } catch (error) {
      if (undoesCreation(error)) await this.cancel(upload).catch(() => undefined);
      throw error;
    }
  }

  /** Ends an upload and removes its bytes (423 while a request appends to it). */
  async cancel(upload: ResumableUpload): Promise<void> {
    const lease = await UploadLease.take(this.rows, this.clock, upload.id);
    lease.end();
    this.hashes.forget(upload.id);
    await this.unfinished().abort(upload.storageKey);
    await this.rows.delete(upload.id);
  }

  private resolve(upload: ResumableUpload): ResolvedField {
    return this.fields.resolve({ ...upload, fieldName: upload.field });
  }

  private unfinished(): ResumableStorage {
    const unfinished = this.storage.storage;
    if (!unfinished) {
      throw new ResumableError(
        ResumableErrorCode.ResumableUnsupported,
        'This service stores files where resumable uploads cannot be kept; upload with multipart/form-data.',
      );
    }
    return unfinished;
  }
}

function undoesCreation(error: unknown): boolean {
  if (!(error instanceof DomainError) || error.status >= 500) return false;
  return !(error instanceof ResumableError && error.code === ResumableErrorCode.BodyIncomplete);
}
