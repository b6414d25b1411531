import { Body, Controller, Delete, HttpCode, Param, Post, Res, UseGuards } from '@nestjs/common';
import {
  ApiBody,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiTags,
} from '@nestjs/swagger';
import type { Response } from 'express';
import { Authenticated, RequirePermission } from '../../../auth/auth.decorators.js';
import { CurrentPrincipal } from '../../../auth/current-principal.decorator.js';
import type { Principal } from '../../../auth/principal.js';
import { ApiProblems } from '../../../openapi/api-problems.js';
import { attachmentTypePermission } from '../../access/attachment-type-permission.js';
import { ParseIdPipe } from '../../../common/parse-id.pipe.js';
import { FileVariants } from '../../images/variants/file-variants.service.js';
import { FileRecordDto } from '../../records/file-record.dto.js';
import { CompleteDirectUploadDto, DirectUploadDto, StartDirectUploadDto } from './direct-upload.dto.js';
import { DirectUploadsService } from './direct-uploads.service.js';
import { PermissionGuard } from '../../../auth/permission.guard.js';

const UPLOAD_ID = { name: 'uploadId', description: 'The id the start of the upload answered' };

/**
 * Direct-to-S3 uploads. Registered before the upload route, whose `:attachmentType/:attachmentId/:fieldName` would
 * take `direct-uploads/{id}/complete` for a field.
 */
@ApiTags('files')
@Controller('files')
// Its routes enforce what they declare whatever the application's global guards (see PermissionGuard).
@UseGuards(PermissionGuard)
export class DirectUploadsController {
  constructor(
    private readonly directUploads: DirectUploadsService,
    private readonly variants: FileVariants,
  ) {}

  @Post(':attachmentType/:attachmentId/:fieldName/direct-uploads')
  @RequirePermission(attachmentTypePermission('write'))
  @ApiOperation({
    operationId: 'startDirectUpload',
    summary: 'Start an upload whose bytes go straight to the S3 bucket',
    description:
      "S3 storage only. Checks the declared size, type and a multi field's room, then answers a presigned URL per " +
      "part: PUT each part there (no Authorization header), keep each answer's ETag header, and POST them to " +
      '`complete_url` before `expires_at` (DIRECT_UPLOAD_TTL). Needs `<attachment type>:write`.',
  })
  @ApiBody({ type: StartDirectUploadDto })
  @ApiCreatedResponse({ type: DirectUploadDto, description: 'Upload started; nothing is recorded yet' })
  @ApiProblems(
    [400, 'Invalid body or id'],
    [404, 'Unknown attachment type or field, or no such entity'],
    [
      409,
      'The multi field already holds its maxCount files (counting the uploads under way into it), an upload to the ' +
        'single field is under way, or the storage is local disk (direct-uploads-unavailable)',
    ],
    [413, "The declared size exceeds the field's maxSize or MAX_FILE_SIZE"],
    [415, 'The declared type is not accepted by the field'],
    [
      429,
      'This client holds OPEN_UPLOADS_PER_PRINCIPAL unfinished uploads, or they declare ' +
        'OPEN_UPLOAD_BYTES_PER_PRINCIPAL; see Retry-After',
    ],
    503,
  )
  start(
    @Param('attachmentType') attachmentType: string,
    @Param('attachmentId', ParseIdPipe) attachmentId: number,
    @Param('fieldName') fieldName: string,
    @Body() body: StartDirectUploadDto,
    @CurrentPrincipal() principal: Principal,
  ): Promise<DirectUploadDto> {
    return this.directUploads.start({ attachmentType, attachmentId, fieldName }, principal, body);
  }

  @Post('direct-uploads/:uploadId/complete')
  @Authenticated()
  @ApiOperation({
    operationId: 'completeDirectUpload',
    summary: 'Complete a direct upload and record its file',
    description:
      'Only the principal that started the upload, still holding `<attachment type>:write`. The stored object must ' +
      "have the declared size; its type is sniffed from its first bytes and the field's rules apply as to any " +
      'upload. A refused object is deleted. Single field: 201 or 200 (replaced); multi field: 201 (appended). The ' +
      'upload can be completed once: a wrong part list (400) may be corrected, anything else ends it.',
  })
  @ApiParam(UPLOAD_ID)
  @ApiBody({ type: CompleteDirectUploadDto })
  @ApiCreatedResponse({ type: FileRecordDto, description: 'Record created' })
  @ApiOkResponse({ type: FileRecordDto, description: 'Single field: file replaced' })
  @ApiProblems(
    [400, 'Invalid body, or the parts do not match the upload (direct-upload-parts-invalid)'],
    [404, "No such upload, another principal's, expired or already completed; or the entity is gone"],
    [409, 'Another request is completing it, or the multi field filled up'],
    [413, "An image beyond the field's maxPixels or decoding budget"],
    [415, 'The sniffed type is not accepted by the field, or an image it cannot decode'],
    [422, 'The stored size differs from the declared size (direct-upload-size-mismatch)'],
    [429, 'UPLOADS_PER_PRINCIPAL uploads or completions of this client are in flight; see Retry-After'],
    503,
  )
  async complete(
    @Param('uploadId') uploadId: string,
    @Body() body: CompleteDirectUploadDto,
    @CurrentPrincipal() principal: Principal,
    @Res({ passthrough: true }) res: Response,
  ): Promise<FileRecordDto> {
    const parts = body.parts.map((part) => ({ partNumber: part.part_number, etag: part.etag }));
    const result = await this.directUploads.complete(uploadId, principal, parts);
    res.status(result.created ? 201 : 200);
    return this.variants.toDto(result.records[0]);
  }

  @Delete('direct-uploads/:uploadId')
  @Authenticated()
  @HttpCode(204)
  @ApiOperation({
    operationId: 'cancelDirectUpload',
    summary: 'Cancel a direct upload and drop its parts',
    description: 'Only the principal that started it.',
  })
  @ApiParam(UPLOAD_ID)
  @ApiNoContentResponse({ description: 'Cancelled' })
  @ApiProblems([404, "No such upload, another principal's, expired or completed"], [409, 'Being completed'], 503)
  async cancel(@Param('uploadId') uploadId: string, @CurrentPrincipal() principal: Principal): Promise<void> {
    await this.directUploads.cancel(uploadId, principal);
  }
}
