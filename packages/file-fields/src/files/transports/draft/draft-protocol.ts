import { Inject, Injectable, Optional } from '@nestjs/common';
import type { Request, Response } from 'express';
import type { Principal } from '../../../auth/principal.js';
import { Clock } from '../../../common/clock.js';
import { DomainError } from '../../../errors/domain-error.js';
import { FilesError, FilesErrorCode } from '../../../errors/files.errors.js';
import { AttachmentOwners } from '../../fields/attachment-owners.js';
import { fileFieldRules } from '../../fields/file-field-rules.js';
import { FILE_FIELDS_OPTIONS, type ResolvedFileFieldsOptions } from '../../fields/file-fields.options.js';
import type { UploadTarget } from '../../intake/admission/field-admission.js';
import { FileVariants } from '../../images/variants/file-variants.service.js';
import type { FileRecordDto } from '../../records/file-record.dto.js';
import { sanitizeName } from '../../intake/inspection/file-name.js';
import type { AppendRequest, AppendResult } from '../resumable/engine/append-run.js';
import { ResumableUploads } from '../resumable/engine/resumable-uploads.service.js';
import type { ResumableUpload } from '../resumable/state/resumable-upload.entity.js';
import { ResumableError, ResumableErrorCode } from '../resumable/resumable.errors.js';
import { UPLOADS_PATH } from '../tus/tus-protocol.js';
import {
  DRAFT_INTEROP_VERSION,
  INTEROP_HEADER,
  PARTIAL_UPLOAD,
  sfBoolean,
  sfInteger,
  speaksInteropVersion,
  uploadComplete,
  uploadLimit,
} from './draft-headers.js';
import { inconsistentLength, mismatchingOffset, notPartialUpload } from './draft.errors.js';
import { filenameOf, hasBody, knownLength, required } from './draft-request.js';

/** Upload Resumption Supported (draft-ietf-httpbis-resumable-upload). */
const UPLOAD_RESUMPTION_SUPPORTED = 104;

/**
 * The IETF "Resumable Uploads for HTTP" draft over the resumable upload engine: creation at a field's upload URL,
 * then HEAD, PATCH (application/partial-upload) and DELETE on the upload resource that tus uses too. It reads the
 * draft's headers, calls the engine, and writes the draft's answers; the request that completes the upload answers
 * what a multipart upload would have (the file record, 201 or 200), with Upload-Complete: ?1.
 */
@Injectable()
export class DraftProtocol {
  constructor(
    private readonly uploads: ResumableUploads,
    private readonly owners: AttachmentOwners,
    private readonly variants: FileVariants,
    @Inject(FILE_FIELDS_OPTIONS) private readonly options: ResolvedFileFieldsOptions,
    @Optional() private readonly clock: Clock = new Clock(),
  ) {}

  /**
   * POST with Upload-Complete: creates the upload, announces it with a 104 to a client of this interop version, and
   * appends the body if there is one (or completes an empty file, with ?1). Sets the status and headers of the
   * answer and returns its body: none while the upload is incomplete (201, Location), the file record once complete.
   */
  async create(
    target: UploadTarget,
    principal: Principal,
    req: Request,
    res: Response,
  ): Promise<FileRecordDto | undefined> {
    const interim = speaksInteropVersion(req);
    const complete = required(sfBoolean(req, 'upload-complete'), 'Upload-Complete');
    const length = knownLength(sfInteger(req, 'upload-length'), complete, 0, req);
    const originalName = sanitizeName(filenameOf(req));
    const maxSize = this.maxSize(target);
    const { id, upload } = await withLimit(maxSize, () =>
      this.uploads.create(target, principal, {
        protocol: 'draft',
        length: length ?? null,
        originalName,
        metadata: null,
      }),
    );
    const location = `${this.options.publicUrl}${UPLOADS_PATH}/${id}`;
    const limit = uploadLimit(maxSize, this.secondsLeft(upload));
    if (interim && typeof res.writeInformation === 'function') {
      res.writeInformation(UPLOAD_RESUMPTION_SUPPORTED, {
        Location: location,
        'Upload-Limit': limit,
        [INTEROP_HEADER]: String(DRAFT_INTEROP_VERSION),
      });
    }
    const result: Pick<AppendResult, 'upload' | 'record' | 'created'> =
      hasBody(req) || complete
        ? await this.append(upload, principal, maxSize, { offset: 0, body: req, complete })
        : { upload };
    if (result.record) return this.finished(res, result);
    res.status(201).set({
      Location: location,
      'Upload-Complete': uploadComplete(false),
      'Upload-Offset': String(result.upload.offset),
      'Upload-Limit': limit,
    });
    return undefined;
  }

  /** HEAD: the offset to resume from, the length once known, the limits; never stored by a cache. */
  async head(id: string, principal: Principal, req: Request, res: Response): Promise<void> {
    speaksInteropVersion(req);
    const upload = await this.uploads.find(id, principal);
    res.status(204).set({
      'Cache-Control': 'no-store',
      // An upload exists only until it completes: the request that completes it removes it.
      'Upload-Complete': uploadComplete(false),
      'Upload-Offset': String(upload.offset),
      'Upload-Limit': uploadLimit(this.maxSize(slotOf(upload)), this.secondsLeft(upload)),
    });
    if (upload.declaredLength !== null) res.setHeader('Upload-Length', String(upload.declaredLength));
    res.end();
  }

  /**
   * PATCH: appends an application/partial-upload body at Upload-Offset (409 with the upload's offset when it is not
   * that); 204 with Upload-Complete: ?0 and the new offset, or the file record once Upload-Complete: ?1 (or the
   * declared length) completes it.
   */
  async patch(id: string, principal: Principal, req: Request, res: Response): Promise<void> {
    speaksInteropVersion(req);
    if (hasBody(req) && req.is(PARTIAL_UPLOAD) !== PARTIAL_UPLOAD) throw notPartialUpload();
    const offset = required(sfInteger(req, 'upload-offset'), 'Upload-Offset');
    const complete = required(sfBoolean(req, 'upload-complete'), 'Upload-Complete');
    const upload = await this.uploads.find(id, principal);
    if (offset !== upload.offset) throw mismatchingOffset(upload.offset, offset);
    const length = knownLength(sfInteger(req, 'upload-length'), complete, offset, req);
    if (length !== undefined && length !== (upload.declaredLength ?? length)) {
      throw inconsistentLength(`The upload's length is ${upload.declaredLength}, not ${length}.`);
    }
    if (length !== undefined && length < offset) {
      throw inconsistentLength(`The upload already holds ${offset} bytes, more than ${length}.`);
    }
    const maxSize = this.maxSize(slotOf(upload));
    const result = await this.append(upload, principal, maxSize, { offset, body: req, length, complete }, id);
    if (result.record) {
      res.json(await this.finished(res, result));
      return;
    }
    res
      .status(204)
      .set({ 'Upload-Complete': uploadComplete(false), 'Upload-Offset': String(result.upload.offset) })
      .end();
  }

  /** DELETE: the upload and its bytes are gone; 204. */
  async cancel(id: string, principal: Principal, req: Request, res: Response): Promise<void> {
    speaksInteropVersion(req);
    await this.uploads.cancel(await this.uploads.find(id, principal));
    res.status(204).end();
  }

  /**
   * The engine's append, its errors told apart as the draft asks: the file field's answers (the upload is over) say
   * Upload-Complete: ?1, the protocol's ?0; a 413 names the limits. With the upload's `id` it appends to an upload
   * under way (PATCH); without, it is the creating request's body, whose refusal undoes the creation.
   */
  private async append(
    upload: ResumableUpload,
    principal: Principal,
    maxSize: number,
    request: AppendRequest,
    id?: string,
  ): Promise<AppendResult> {
    try {
      return await withLimit(maxSize, () =>
        id === undefined
          ? this.uploads.appendCreating(upload, principal, request)
          : this.uploads.append(upload, principal, request),
      );
    } catch (error) {
      // Another request moved the offset after this one read it: the offset it moved to.
      if (id && error instanceof ResumableError && error.code === ResumableErrorCode.OffsetMismatch) {
        throw mismatchingOffset((await this.uploads.find(id, principal)).offset, request.offset);
      }
      // The engine's only header complaint while appending: a length that contradicts the one known.
      if (error instanceof ResumableError && error.code === ResumableErrorCode.InvalidUploadHeader) {
        throw inconsistentLength(error.message);
      }
      if (error instanceof DomainError) error.headers['Upload-Complete'] = uploadComplete(error instanceof FilesError);
      throw error;
    }
  }

  private async finished(
    res: Response,
    { record, created }: Pick<AppendResult, 'record' | 'created'>,
  ): Promise<FileRecordDto> {
    res.status(created ? 201 : 200).set('Upload-Complete', uploadComplete(true));
    return this.variants.toDto(record!);
  }

  private maxSize({ attachmentType, attachmentId, fieldName }: UploadTarget): number {
    const { field } = this.owners.resolveField(attachmentType, attachmentId, fieldName);
    return fileFieldRules(field, this.options.maxFileSize).maxSize;
  }

  private secondsLeft(upload: ResumableUpload): number {
    return (upload.expiresAt - this.clock.nowMs()) / 1000;
  }
}

/** A 413 of the upload's size says what the limits are. */
async function withLimit<T>(maxSize: number, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    const tooLarge =
      (error instanceof FilesError && error.code === FilesErrorCode.FileTooLarge) ||
      (error instanceof ResumableError && error.code === ResumableErrorCode.LengthExceeded);
    if (tooLarge) error.headers['Upload-Limit'] = uploadLimit(maxSize);
    throw error;
  }
}

function slotOf(upload: ResumableUpload): UploadTarget {
  return { attachmentType: upload.attachmentType, attachmentId: upload.attachmentId, fieldName: upload.field };
}
