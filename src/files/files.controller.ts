import {
  applyDecorators,
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Param,
  Post,
  Put,
  Query,
  Req,
  Res,
} from '@nestjs/common';
import {
  ApiBody,
  ApiConsumes,
  ApiCreatedResponse,
  ApiExtraModels,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiQuery,
  ApiResponse,
  ApiTags,
  getSchemaPath,
} from '@nestjs/swagger';
import { ApiProblems } from '../common/openapi/api-problems.js';
import type { Request, Response } from 'express';
import { Authenticated, Public, RequirePermission } from '../common/auth/auth.decorators.js';
import { CurrentPrincipal } from '../common/auth/current-principal.decorator.js';
import type { Principal } from '../common/auth/principal.js';
import { ParseIdPipe } from '../common/pipes/parse-id.pipe.js';
import { FileRecordDto } from './file-record.dto.js';
import { FilesService } from './files.service.js';
import { FileChangesService } from './file-changes.service.js';
import { FileContentService } from './file-content.service.js';
import { sendContent } from './download/send-content.js';
import type { ByteRange } from './storage/file-storage.js';
import { ReorderFilesDto } from './dto/reorder-files.dto.js';
import type { FileRecord } from './file-record.entity.js';
import { SignedFileContent, VARIANT_NAME, type SignedUrlQuery } from './urls/signed-file-content.js';
import { SIGNATURE_PATTERN } from './urls/url-signer.js';
import { FileVariants } from './images/file-variants.service.js';
import { AttachmentTypes } from './attachment-types.service.js';
import { AttachmentTypeDto } from './dto/attachment-type.dto.js';

/** Any stored type: the content type is the one sniffed at upload. */
const BINARY = { '*/*': { schema: { type: 'string', format: 'binary' } } };
const CONTENT_HEADERS = {
  ETag: { description: 'Strong validator of the content', schema: { type: 'string' } },
  'Last-Modified': { schema: { type: 'string' } },
  'Accept-Ranges': { schema: { type: 'string', enum: ['bytes'] } },
  'Content-Disposition': { description: 'attachment, with the original name', schema: { type: 'string' } },
};

/** The signed route's headers: those of the content route, and how long the URL (and so the copy) stays valid. */
const SIGNED_CONTENT_HEADERS = {
  ...CONTENT_HEADERS,
  'Cache-Control': { description: '`private, max-age=<seconds until the URL expires>`', schema: { type: 'string' } },
};

/** The answers of a route that serves stored bytes (sendContent): the whole content, one byte range, or 304. */
function ApiContentResponses(whole: string, headers: Record<string, object> = CONTENT_HEADERS) {
  return applyDecorators(
    ApiResponse({ status: 200, description: whole, content: BINARY, headers }),
    ApiResponse({ status: 206, description: 'The requested byte range', content: BINARY, headers }),
    ApiResponse({ status: 304, description: 'If-None-Match matched: the copy the client holds is current' }),
  );
}

const oneOrMany = {
  oneOf: [{ $ref: getSchemaPath(FileRecordDto) }, { type: 'array', items: { $ref: getSchemaPath(FileRecordDto) } }],
};

@ApiTags('files')
@ApiExtraModels(FileRecordDto)
@Controller('files')
export class FilesController {
  constructor(
    private readonly attachmentTypes: AttachmentTypes,
    private readonly files: FilesService,
    private readonly changes: FileChangesService,
    private readonly content: FileContentService,
    private readonly signed: SignedFileContent,
    private readonly variants: FileVariants,
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

  @Post(':attachmentType/:attachmentId/:fieldName')
  @RequirePermission((req) => `${String(req.params.attachmentType)}:write`)
  @ApiOperation({
    operationId: 'uploadFile',
    summary: 'Upload a file to one field of one entity',
    description:
      'Single field: creates the record (201) or replaces its file keeping the same id (200). ' +
      'Multi field: appends (201); several `file` parts append in order and answer an array. ' +
      'The type is sniffed from the bytes, not taken from the part. Needs `<attachment type>:write`.',
  })
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
    [409, 'The multi field already holds its maxCount files'],
    [
      413,
      "A file exceeds the field maxSize or MAX_FILE_SIZE, or an image the field's maxPixels or, in a field with " +
        'variants, the memory IMAGE_DECODE_BYTES allows for decoding it',
    ],
    [
      415,
      'Not multipart/form-data, a file type the field does not accept, or an image a field with variants cannot read',
    ],
    [429, 'UPLOADS_PER_PRINCIPAL uploads of this client are in flight; see Retry-After'],
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
  ): Promise<FileRecordDto | FileRecordDto[]> {
    const result = await this.files.upload({ attachmentType, attachmentId, fieldName }, principal, req, res);
    res.status(result.created ? 201 : 200);
    const bodies = result.records.map((record) => this.body(record));
    return bodies.length === 1 ? bodies[0] : bodies;
  }

  // The routes by file id check `<attachment type>:read|write` of the record they load (see file-access.ts).

  @Get(':id')
  @Authenticated()
  @ApiOperation({
    operationId: 'getFile',
    summary: 'Get one file record',
    description:
      "Needs `<attachment type>:read` of the file's entity; without it the file is answered as missing (404).",
  })
  @ApiOkResponse({ type: FileRecordDto })
  @ApiProblems(400, [404, 'No such file, or no permission to read files of its entity type'])
  async get(@Param('id', ParseIdPipe) id: number, @CurrentPrincipal() principal: Principal): Promise<FileRecordDto> {
    return this.body(await this.content.readable(principal, id));
  }

  @Get(':id/content')
  @Authenticated()
  @ApiOperation({
    operationId: 'downloadFile',
    summary: 'Download the bytes of a file',
    description:
      "Needs `<attachment type>:read` of the file's entity (else 404). Streams with ETag, Last-Modified and one " +
      'byte range (206); If-None-Match gives 304, a bad range 416.',
  })
  @ApiContentResponses('The bytes, as the stored type')
  @ApiProblems(
    400,
    [404, 'No such file, or no permission to read files of its entity type'],
    [416, 'The Range header cannot be satisfied'],
    503,
  )
  async download(
    @Param('id', ParseIdPipe) id: number,
    @CurrentPrincipal() principal: Principal,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    const record = await this.content.readable(principal, id);
    await sendContent(record, req, res, (range) => this.content.open(record, range));
  }

  @Get(':id/variants/:name')
  @Authenticated()
  @ApiOperation({
    operationId: 'downloadFileVariant',
    summary: 'Download an image variant of a file',
    description:
      "Needs `<attachment type>:read` of the file's entity (else 404). A variant its field declares, made now when " +
      'it is missing; served like the file itself (ETag, Last-Modified, one byte range, 304).',
  })
  @ApiContentResponses('The variant, as its type')
  @ApiProblems(
    400,
    [
      404,
      'No such file, or no permission to read files of its entity type; a variant its field does not declare, or ' +
        'a file no variant can be made of',
    ],
    [416, 'The Range header cannot be satisfied'],
    503,
  )
  async downloadVariant(
    @Param('id', ParseIdPipe) id: number,
    @Param('name') name: string,
    @CurrentPrincipal() principal: Principal,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    const variant = await this.variants.variantOf(await this.content.readable(principal, id), name);
    await sendContent(variant, req, res, (range) => this.content.open(variant, range));
  }

  @Delete(':id')
  @Authenticated()
  @HttpCode(204)
  @ApiOperation({
    operationId: 'deleteFile',
    summary: 'Delete a file; the rest of its field is renumbered 0..n-1',
    description: "Needs `<attachment type>:write` of the file's entity: 403 with only `:read`, 404 with neither.",
  })
  @ApiNoContentResponse({ description: 'Deleted' })
  @ApiProblems(400, [404, 'No such file, or neither read nor write permission on its entity type'])
  async remove(@Param('id', ParseIdPipe) id: number, @CurrentPrincipal() principal: Principal): Promise<void> {
    await this.changes.delete(principal, id);
  }

  @Put(':attachmentType/:attachmentId/:fieldName/order')
  @RequirePermission((req) => `${String(req.params.attachmentType)}:write`)
  @ApiOperation({
    operationId: 'reorderFiles',
    summary: "Reorder a multi field's files; the list must name exactly its current files",
  })
  @ApiOkResponse({ type: [FileRecordDto], description: 'The field in its new order' })
  @ApiProblems(
    [400, 'Invalid body or id, or not a multi field'],
    [404, 'Unknown attachment type or field, or no such entity'],
    [409, 'The ids are not exactly the files the field holds now'],
  )
  async reorder(
    @Param('attachmentType') attachmentType: string,
    @Param('attachmentId', ParseIdPipe) attachmentId: number,
    @Param('fieldName') fieldName: string,
    @Body() body: ReorderFilesDto,
  ): Promise<FileRecordDto[]> {
    const reordered = await this.changes.reorder(attachmentType, attachmentId, fieldName, body.ids);
    return reordered.map((record) => this.body(record));
  }

  @Get(':id/signed')
  @Public()
  @ApiOperation({
    operationId: 'downloadSignedFile',
    summary: 'Download the bytes of a file through its signed URL, without a token',
    description:
      'The `url` of a file record, for `<img src>`, links and caches that cannot send a token: no Authorization, the ' +
      'signature is the credential. Answers like `downloadFile` (ETag, 304, one byte range, 416) with ' +
      '`Cache-Control: private, max-age=<seconds until the URL expires>`. An expired URL, or one that was altered or ' +
      'names bytes the file no longer has (replaced or deleted since), is 403.',
  })
  // Listed in the document in the reverse order: variant, expires, signature, as in the URLs.
  @ApiQuery({
    name: 'signature',
    description: 'HMAC-SHA256, base64url',
    schema: { type: 'string', pattern: SIGNATURE_PATTERN.source },
  })
  @ApiQuery({ name: 'expires', description: 'Expiry, Unix time in seconds', schema: { type: 'integer', minimum: 0 } })
  @ApiQuery({
    name: 'variant',
    required: false,
    description: 'A variant of the file (e.g. `thumb`)',
    schema: { type: 'string', pattern: VARIANT_NAME.source },
  })
  @ApiContentResponses('The bytes, as the stored type', SIGNED_CONTENT_HEADERS)
  @ApiProblems(
    400,
    [403, 'The URL expired, was altered, or names bytes its file no longer has (replaced or deleted since)'],
    [416, 'The Range header cannot be satisfied'],
    503,
  )
  async downloadSigned(
    @Param('id', ParseIdPipe) id: number,
    @Query() query: SignedUrlQuery,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    const { record, secondsLeft } = await this.signed.resolve(id, query);
    const open = (range?: ByteRange) => this.content.open(record, range);
    await sendContent(record, req, res, open, `private, max-age=${secondsLeft}`);
  }

  /** A record as the API answers it: with its `url`, and its `variants` when its field declares some. */
  private body(record: FileRecord): FileRecordDto {
    return this.variants.toDto(record);
  }
}
