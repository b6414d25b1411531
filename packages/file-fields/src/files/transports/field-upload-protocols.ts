import { applyDecorators, Injectable } from '@nestjs/common';
import { ApiHeader } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import type { Principal } from '../../auth/principal.js';
import type { UploadTarget } from '../intake/admission/field-admission.js';
import { FileVariants } from '../images/variants/file-variants.service.js';
import type { FileRecordDto } from '../records/file-record.dto.js';
import { isDraftRequest } from './draft/draft-headers.js';
import { ApiDraftCreation } from './draft/draft-openapi.js';
import { DraftProtocol } from './draft/draft-protocol.js';
import { MultipartUploads } from './multipart/multipart-uploads.js';
import { isTusRequest } from './tus/tus-headers.js';
import { TusProtocol } from './tus/tus-protocol.js';

/**
 * The one place that chooses the protocol of a request to a field's upload URL (`POST /files/{type}/{id}/{field}`):
 * tus creation (Tus-Resumable), the IETF draft's creation (Upload-Complete), else one multipart/form-data upload.
 */
@Injectable()
export class FieldUploadProtocols {
  constructor(
    private readonly tus: TusProtocol,
    private readonly draft: DraftProtocol,
    private readonly multipart: MultipartUploads,
    private readonly variants: FileVariants,
  ) {}

  /** Sets the answer's status and headers and returns its body: none for a resumable upload still incomplete. */
  async upload(
    target: UploadTarget,
    principal: Principal,
    req: Request,
    res: Response,
  ): Promise<FileRecordDto | FileRecordDto[] | undefined> {
    // tus creation: 201 with the upload's Location and no body.
    if (isTusRequest(req)) {
      await this.tus.create(target, principal, req, res);
      return undefined;
    }
    // IETF draft creation: 201 with the upload's Location, or the record when the request brought the whole file.
    if (isDraftRequest(req)) return this.draft.create(target, principal, req, res);
    const result = await this.multipart.upload(target, principal, req, res);
    res.status(result.created ? 201 : 200);
    const bodies = await Promise.all(result.records.map((record) => this.variants.toDto(record)));
    return bodies.length === 1 ? bodies[0] : bodies;
  }
}

/** The request headers of the resumable protocols a field's upload URL speaks besides multipart, for the document. */
export function ApiFieldUploadProtocols(): MethodDecorator {
  // In the order stacked decorators would apply them (bottom first), which the document keeps.
  return applyDecorators(
    ApiDraftCreation(),
    ApiHeader({
      name: 'Upload-Metadata',
      required: false,
      description: 'tus creation: `filename <base64>,filetype <base64>`',
    }),
    ApiHeader({ name: 'Upload-Defer-Length', required: false, description: 'tus creation: 1, the length comes later' }),
    ApiHeader({ name: 'Upload-Length', required: false, description: 'tus creation: the whole length in bytes' }),
    ApiHeader({ name: 'Tus-Resumable', required: false, description: 'tus creation: 1.0.0' }),
  );
}
