import { Inject, Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import type { Principal } from '../../../auth/principal.js';
import { FILE_FIELDS_OPTIONS, type ResolvedFileFieldsOptions } from '../../fields/file-fields.options.js';
import type { UploadTarget } from '../../intake/admission/field-admission.js';
import { sanitizeName } from '../../intake/inspection/file-name.js';
import type { AppendResult } from '../resumable/engine/append-run.js';
import { ResumableUploads } from '../resumable/engine/resumable-uploads.service.js';
import type { ResumableUpload } from '../resumable/state/resumable-upload.entity.js';
import { ResumableError, ResumableErrorCode } from '../resumable/resumable.errors.js';
import {
  assertTusVersion,
  creationLength,
  httpDate,
  integerHeader,
  isOffsetOctetStream,
  OFFSET_OCTET_STREAM,
  TUS_CHECKSUM_ALGORITHMS,
  TUS_EXTENSIONS,
  TUS_VERSION,
  uploadChecksum,
  uploadMetadata,
} from './tus-headers.js';

/** Where an upload resource lives, below the application's root. */
export const UPLOADS_PATH = '/files/uploads';

/**
 * tus 1.0.0 (core, creation, creation-with-upload, creation-defer-length, termination, expiration, checksum) over the
 * resumable upload engine: it reads the protocol's headers, calls the engine, and writes the protocol's answers.
 */
@Injectable()
export class TusProtocol {
  constructor(
    private readonly uploads: ResumableUploads,
    @Inject(FILE_FIELDS_OPTIONS) private readonly options: ResolvedFileFieldsOptions,
  ) {}

  /** OPTIONS: what this server speaks, for anyone (no token needed). */
  discover(res: Response): void {
    res
      .status(204)
      .set({
        'Tus-Resumable': TUS_VERSION,
        'Tus-Version': TUS_VERSION,
        'Tus-Extension': TUS_EXTENSIONS,
        'Tus-Max-Size': String(this.uploads.maxSize),
        'Tus-Checksum-Algorithm': TUS_CHECKSUM_ALGORITHMS,
      })
      .end();
  }

  /**
   * POST to a field's upload URL with Tus-Resumable: creates an upload (201, Location), appending the body when it
   * carries one. Sets the answer's status and headers; the caller sends it, without a body.
   */
  async create(target: UploadTarget, principal: Principal, req: Request, res: Response): Promise<void> {
    res.setHeader('Tus-Resumable', TUS_VERSION);
    assertTusVersion(req);
    const length = creationLength(req);
    const { raw, values } = uploadMetadata(req);
    const withBody = hasBody(req);
    if (withBody && !isOffsetOctetStream(req)) throw notOffsetStream();
    const originalName = sanitizeName(values.get('filename') ?? values.get('name'));
    const { id, upload } = await this.uploads.create(target, principal, {
      protocol: 'tus',
      length,
      originalName,
      metadata: raw,
    });
    const location = `${this.options.publicUrl}${UPLOADS_PATH}/${id}`;
    res.status(201).setHeader('Location', location);
    const result: Pick<AppendResult, 'upload' | 'record'> =
      withBody || length === 0
        ? await this.uploads.appendCreating(upload, principal, { offset: 0, body: req })
        : { upload };
    this.answerAppend(res, result);
  }

  /** HEAD: the offset (and length) to resume from; never stored by a cache. */
  async head(id: string, principal: Principal, req: Request, res: Response): Promise<void> {
    const upload = await this.open(id, principal, req, res);
    res.setHeader('Cache-Control', 'no-store');
    res.setHeader('Upload-Offset', String(upload.offset));
    if (upload.declaredLength === null) res.setHeader('Upload-Defer-Length', '1');
    else res.setHeader('Upload-Length', String(upload.declaredLength));
    if (upload.metadata) res.setHeader('Upload-Metadata', upload.metadata);
    res.setHeader('Upload-Expires', httpDate(upload.expiresAt));
    res.status(200).end();
  }

  /** PATCH: appends the body at Upload-Offset (409 when it is not the upload's); 204 with the new offset. */
  async patch(id: string, principal: Principal, req: Request, res: Response): Promise<void> {
    res.setHeader('Tus-Resumable', TUS_VERSION);
    assertTusVersion(req);
    if (!isOffsetOctetStream(req)) throw notOffsetStream();
    const offset = integerHeader(req, 'upload-offset');
    if (offset === undefined) {
      throw new ResumableError(ResumableErrorCode.InvalidUploadHeader, 'Send Upload-Offset: where this body starts.');
    }
    const length = integerHeader(req, 'upload-length');
    const checksum = uploadChecksum(req);
    const upload = await this.open(id, principal, req, res);
    const result = await this.uploads.append(upload, principal, { offset, body: req, length, checksum });
    res.status(204);
    this.answerAppend(res, result);
    res.end();
  }

  /** DELETE (termination): the upload and its bytes are gone; 204. */
  async terminate(id: string, principal: Principal, req: Request, res: Response): Promise<void> {
    await this.uploads.cancel(await this.open(id, principal, req, res));
    res.status(204).end();
  }

  private async open(id: string, principal: Principal, req: Request, res: Response): Promise<ResumableUpload> {
    res.setHeader('Tus-Resumable', TUS_VERSION);
    assertTusVersion(req);
    return this.uploads.find(id, principal);
  }

  /** Upload-Offset, and Upload-Expires while unfinished or the finished file's id (File-Id) once complete. */
  private answerAppend(res: Response, { upload, record }: Pick<AppendResult, 'upload' | 'record'>): void {
    res.setHeader('Upload-Offset', String(upload.offset));
    if (record) res.setHeader('File-Id', String(record.id));
    else res.setHeader('Upload-Expires', httpDate(upload.expiresAt));
  }
}

function hasBody(req: Request): boolean {
  const length = req.headers['content-length'];
  return length !== undefined ? length !== '0' : req.headers['transfer-encoding'] !== undefined;
}

function notOffsetStream(): ResumableError {
  return new ResumableError(ResumableErrorCode.NotOffsetOctetStream, `Send the bytes as ${OFFSET_OCTET_STREAM}.`);
}
