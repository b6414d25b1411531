import { Controller, Get, Param, Post, Req, Res, UseGuards } from '@nestjs/common';
import {
  ApiBody,
  ApiConsumes,
  ApiCreatedResponse,
  ApiExtraModels,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
  getSchemaPath,
} from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Authenticated, RequirePermission } from '../../auth/auth.decorators.js';
import { CurrentPrincipal } from '../../auth/current-principal.decorator.js';
import type { Principal } from '../../auth/principal.js';
import { ApiProblems } from '../../openapi/api-problems.js';
import { attachmentTypePermission } from '../access/attachment-type-permission.js';
import { ParseIdPipe } from '../../common/parse-id.pipe.js';
import { AttachmentTypes } from '../fields/attachment-types.service.js';
import { AttachmentTypeDto } from '../dto/attachment-type.dto.js';
import { FileRecordDto } from '../records/file-record.dto.js';
import { ApiFieldUploadProtocols, FieldUploadProtocols } from '../transports/field-upload-protocols.js';
import { PermissionGuard } from '../../auth/permission.guard.js';

const oneOrMany = {
  oneOf: [{ $ref: getSchemaPath(FileRecordDto) }, { type: 'array', items: { $ref: getSchemaPath(FileRecordDto) } }],
};

/** Uploads to a field, and the fields a client may upload to. Registered before the routes by file id. */
@ApiTags('files')
@ApiExtraModels(FileRecordDto)
@Controller('files')
// Its routes enforce what they declare whatever the application's global guards (see PermissionGuard).
@UseGuards(PermissionGuard)
export class FileUploadsController {
  constructor(
    private readonly attachmentTypes: AttachmentTypes,
    private readonly protocols: FieldUploadProtocols,
  ) {}

  // Before `:id`, which would take `fields` for an id.
  @Get('fields')
  @Authenticated()
  @ApiOperation({
    operationId: 'listAttachmentTypes',
    summary: 'List the entity types files attach to, with each file field and its rules',
    description:
      'Only the types whose `<attachment type>:read` the token holds. The rules are those an upload enforces, ' +
      'with MAX_FILE_SIZE applied: a client can check a file before it sends it.',
  })
  @ApiOkResponse({ type: [AttachmentTypeDto] })
  @ApiProblems(400)
  listAttachmentTypes(@CurrentPrincipal() principal: Principal): AttachmentTypeDto[] {
    return this.attachmentTypes.readableBy(principal).map((view) => AttachmentTypeDto.from(view));
  }

  // The document holds this operation once per field, with the type and field written into the path and the body
  // and answers of that field (documentFileFields): what follows is what those operations share.
  @Post(':attachmentType/:attachmentId/:fieldName')
  @RequirePermission(attachmentTypePermission('write'))
  @ApiOperation({
    operationId: 'uploadFile',
    summary: 'Upload a file to one field of one entity',
    description:
      'Single field: creates the record (201) or replaces its file keeping the same id (200). ' +
      'Multi field: appends (201); several `file` parts append in order and answer an array. ' +
      'The type is sniffed from the bytes, not taken from the part. Needs `<attachment type>:write`. ' +
      'With `Tus-Resumable: 1.0.0`, creates a resumable upload instead (tus creation): 201 with its Location, ' +
      'where HEAD, PATCH and DELETE continue it (`/files/uploads/{uploadId}`); the same rules apply, and the record ' +
      'appears when its last byte arrives. With `Upload-Complete` (the IETF resumable upload draft), creates one too: ' +
      '`?0` answers 201 with its Location once the body (if any) is stored, `?1` answers the record as here once the ' +
      'whole file arrived; a 104 with the Location comes first to a client that sends the interop version.',
  })
  @ApiFieldUploadProtocols()
  @ApiConsumes('multipart/form-data')
  @ApiBody({
    schema: {
      type: 'object',
      required: ['file'],
      properties: {
        file: {
          type: 'array',
          minItems: 1,
          items: { type: 'string', format: 'binary' },
          description: 'One `file` part; a multi field takes several, stored in their order',
        },
      },
    },
  })
  @ApiCreatedResponse({ description: 'Record(s) created', schema: oneOrMany })
  @ApiOkResponse({ description: 'Single field: file replaced', type: FileRecordDto })
  @ApiProblems(
    [400, 'Bad id, no `file` part, malformed multipart, too many parts for a single field'],
    [404, 'Unknown attachment type or field, or no such entity'],
    [
      409,
      'The multi field already holds its maxCount files; tus, IETF draft: counting the uploads under way into it, ' +
        'and a single field takes one at a time',
    ],
    [
      413,
      "A file exceeds the field maxSize or MAX_FILE_SIZE, or an image the field's maxPixels or, in a field with " +
        'variants, the memory IMAGE_DECODE_BYTES allows for decoding it',
    ],
    [
      415,
      'Not multipart/form-data, a file type the field does not accept, or an image a field with variants cannot read',
    ],
    [412, 'tus: Tus-Resumable is not 1.0.0; IETF draft: Upload-Draft-Interop-Version is not ours'],
    [
      429,
      'UPLOADS_PER_PRINCIPAL uploads of this client are in flight; tus, IETF draft: it holds ' +
        'OPEN_UPLOADS_PER_PRINCIPAL unfinished uploads, or they declare OPEN_UPLOAD_BYTES_PER_PRINCIPAL; see Retry-After',
    ],
    [501, 'tus, IETF draft: the storage keeps no resumable uploads'],
    503,
    507,
  )
  async upload(
    @Param('attachmentType') attachmentType: string,
    @Param('attachmentId', ParseIdPipe) attachmentId: number,
    @Param('fieldName') fieldName: string,
    @CurrentPrincipal() principal: Principal,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<FileRecordDto | FileRecordDto[] | undefined> {
    // tus, the IETF draft or multipart/form-data: FieldUploadProtocols chooses.
    return this.protocols.upload({ attachmentType, attachmentId, fieldName }, principal, req, res);
  }
}
