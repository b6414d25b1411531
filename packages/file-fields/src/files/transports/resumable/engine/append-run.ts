import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { Clock } from '../../../../common/clock.js';
import type { ResolvedField } from '../../../fields/attachment-owners.js';
import { fileFieldRules } from '../../../fields/file-field-rules.js';
import type { ResolvedFileFieldsOptions } from '../../../fields/file-fields.options.js';
import type { FileRecord } from '../../../records/file-record.entity.js';
import { FilesError, FilesErrorCode } from '../../../../errors/files.errors.js';
import { fileTooLarge } from '../../../intake/admission/upload-refusals.js';
import { SNIFF_BYTES } from '../../../intake/inspection/byte-inspector.js';
import { acceptedType } from '../../../intake/inspection/upload-inspection.js';
import type { ResumableUpload } from '../state/resumable-upload.entity.js';
import type { LeasedChanges, ResumableUploadsRepository } from '../state/resumable-uploads.repository.js';
import type { ResumableStorage } from '../storage/resumable-storage.js';
import { ResumableError, ResumableErrorCode, uploadNotFound } from '../resumable.errors.js';
import { AppendMeter } from './append-meter.js';
import { uploadExpiry } from './upload-expiry.js';
import { appendStream } from './append-stream.js';
import { HeadGate } from './head-gate.js';
import type { HashCarry } from './hash-carry.js';
import type { UploadLease } from './upload-lease.js';

/** A checksum of one request's body, as the client computed it (tus Upload-Checksum). */
export interface BodyChecksum {
  algorithm: string;
  /** The raw digest. */
  digest: Buffer;
}

export interface AppendRequest {
  /** Where the client says the body starts: the upload's offset, or 409. */
  offset: number;
  body: Readable;
  /** The whole upload's length, when the client declares it now (it deferred it at creation). */
  length?: number;
  /** The body's checksum: a mismatch discards the body (460). */
  checksum?: BodyChecksum;
  /** The client says this body is the last (the IETF draft's Upload-Complete: ?1). */
  complete?: boolean;
}

export interface AppendResult {
  upload: ResumableUpload;
  complete: boolean;
  /** The file record, once the upload completed. */
  record?: FileRecord;
  /** Whether the record is new (false: a single field's file replaced). */
  created?: boolean;
}

/** One request's append, under the lease it holds on the upload. */
export class AppendRun {
  constructor(
    private readonly unfinished: ResumableStorage,
    private readonly rows: ResumableUploadsRepository,
    private readonly hashes: HashCarry,
    private readonly clock: Clock,
    private readonly options: ResolvedFileFieldsOptions,
    private readonly lease: UploadLease,
  ) {}

  async append(stale: ResumableUpload, resolved: ResolvedField, request: AppendRequest): Promise<AppendResult> {
    // The row as it is now that this request holds it: another may have appended since it was read.
    const upload = await this.rows.findByHash(stale.idHash);
    if (!upload) throw uploadNotFound();
    try {
      return await this.appendLeased(upload, resolved, request);
    } catch (error) {
      await this.lease.release({}).catch(() => false);
      throw error;
    }
  }

  private async appendLeased(
    upload: ResumableUpload,
    { field }: ResolvedField,
    request: AppendRequest,
  ): Promise<AppendResult> {
    if (request.offset !== upload.offset) {
      throw new ResumableError(
        ResumableErrorCode.OffsetMismatch,
        `The upload is at offset ${upload.offset}, not ${request.offset}; ask for the offset and go on from there.`,
      );
    }
    const maxSize = fileFieldRules(field, this.options.maxFileSize).maxSize;
    const declared = this.declaredLength(upload, request.length, maxSize);
    const whole = this.hashes.continueAt(upload.id, upload.offset);
    const check = request.checksum ? createHash(request.checksum.algorithm) : undefined;
    const meter = new AppendMeter((declared ?? maxSize) - upload.offset, [whole, check]);
    const isLast = (received: number) =>
      request.complete === true || (declared !== null && upload.offset + received === declared);
    const gate =
      upload.mimeType === null
        ? new HeadGate(
            await this.knownHead(upload),
            (head) => acceptedType(head, field.accept, upload.originalName),
            isLast,
          )
        : undefined;
    const lost = new AbortController();
    this.lease.onLost(() => lost.abort());
    const transforms = gate ? [meter, gate] : [meter];
    const stored = await appendStream(
      this.unfinished,
      upload.storageKey,
      upload.offset,
      request.body,
      transforms,
      lost.signal,
    );
    // A body still arriving when the upload's lifetime ends does not carry it past it: the upload is over.
    if (upload.createdAt + this.options.resumableUploadLifetimeMs <= this.clock.nowMs()) {
      return this.refuse(
        upload,
        new ResumableError(ResumableErrorCode.UploadExpired, 'The upload expired; start a new one.'),
      );
    }
    const failure = lost.signal.aborted ? takenOver() : stored.failure;
    if (failure instanceof FilesError && failure.code === FilesErrorCode.UnsupportedMediaType) {
      return this.refuse(upload, failure);
    }
    if (failure instanceof ResumableError && failure.code === ResumableErrorCode.LengthExceeded && declared === null) {
      return this.refuse(upload, fileTooLarge(maxSize, { name: upload.originalName }));
    }
    const offset = upload.offset + stored.written;
    if (request.checksum && (failure || !check!.digest().equals(request.checksum.digest))) {
      this.hashes.forget(upload.id);
      // Nothing was kept, so the upload's expiry stays where it was.
      await this.lease.release({});
      if (failure) throw answerFor(failure, stored.bodyFailed);
      throw new ResumableError(ResumableErrorCode.ChecksumMismatch, "The body's checksum does not match; discarded.");
    }
    this.hashes.keep(upload.id, offset, !failure && stored.written === meter.count ? whole : undefined);
    // A body said to end the file (the draft's Upload-Complete: ?1) gives it its length, or must end at the one known.
    const endsShort = !failure && request.complete === true && declared !== null && offset !== declared;
    const changes: LeasedChanges = {
      offset,
      mimeType: gate?.mimeType ?? upload.mimeType,
      declaredLength: !failure && request.complete && declared === null ? offset : declared,
      // Only bytes stored move the expiry: an empty request does not keep an upload alive.
      expiresAt: stored.written > 0 ? this.expiry(upload) : upload.expiresAt,
    };
    const updated = Object.assign(upload, changes);
    const complete = !failure && updated.declaredLength === offset;
    if (complete) return { upload: updated, complete };
    const held = await this.lease.release(changes);
    if (failure) throw answerFor(failure, stored.bodyFailed);
    if (!held) throw takenOver();
    if (endsShort) {
      throw new ResumableError(
        ResumableErrorCode.InvalidUploadHeader,
        `The upload is ${declared} bytes long, but the request that ends it leaves it at ${offset}.`,
      );
    }
    return { upload: updated, complete };
  }

  /** The length the upload has from now on: 400 when it contradicts the known one, 413 over the field's maximum. */
  private declaredLength(upload: ResumableUpload, length: number | undefined, maxSize: number): number | null {
    if (length === undefined || length === upload.declaredLength) return upload.declaredLength;
    if (upload.declaredLength !== null || length < upload.offset) {
      throw new ResumableError(ResumableErrorCode.InvalidUploadHeader, 'The upload length cannot change once known.');
    }
    if (length > maxSize) throw fileTooLarge(maxSize, { name: upload.originalName, size: length });
    return length;
  }

  private async knownHead(upload: ResumableUpload): Promise<Buffer> {
    if (upload.offset === 0) return Buffer.alloc(0);
    return this.unfinished.readHead(upload.storageKey, Math.min(upload.offset, SNIFF_BYTES));
  }

  /** Ends the upload for good (a rule it can never meet) and answers why. */
  private async refuse(upload: ResumableUpload, error: Error): Promise<never> {
    this.lease.end();
    this.hashes.forget(upload.id);
    await this.unfinished.abort(upload.storageKey);
    await this.rows.delete(upload.id);
    throw error;
  }

  private expiry(upload: ResumableUpload): number {
    return uploadExpiry(this.options, upload.createdAt, this.clock.nowMs());
  }
}

function takenOver(): ResumableError {
  return new ResumableError(ResumableErrorCode.UploadLocked, 'This request lost its hold on the upload to another.');
}

/**
 * The answer to a failed append: the rules' own errors as they are; a body that broke off is the client's doing
 * (what arrived before it is kept); anything else is the storage's.
 */
function answerFor(failure: unknown, bodyFailed: boolean): Error {
  if (failure instanceof FilesError || failure instanceof ResumableError) return failure;
  if (bodyFailed) {
    return new ResumableError(
      ResumableErrorCode.BodyIncomplete,
      'The body ended before its end; the bytes that arrived are kept.',
    );
  }
  return failure instanceof Error ? failure : new Error(String(failure));
}
