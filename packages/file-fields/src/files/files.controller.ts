import { Body, Controller, Delete, Get, HttpCode, Param, Put, Req, Res, UseGuards } from '@nestjs/common';
import { ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Authenticated, RequirePermission } from '../auth/auth.decorators.js';
import { CurrentPrincipal } from '../auth/current-principal.decorator.js';
import type { Principal } from '../auth/principal.js';
import { ApiProblems } from '../openapi/api-problems.js';
import { TRANSACTION_CONFLICT_RESPONSE } from '../database/transaction-conflict.js';
import { attachmentTypePermission } from './access/attachment-type-permission.js';
import { ParseIdPipe } from '../common/parse-id.pipe.js';
import { ApiContentResponses } from './download/api-content-responses.js';
import { sendContent } from './download/send-content.js';
import { ReorderFilesDto } from './dto/reorder-files.dto.js';
import { FileChangesService } from './changes/file-changes.service.js';
import { FileContentService } from './access/file-content.service.js';
import { FileRecordDto } from './records/file-record.dto.js';
import { FileVariants } from './images/variants/file-variants.service.js';
import { PermissionGuard } from '../auth/permission.guard.js';

/**
 * Stored files: a record, its bytes and its variants by file id, deletion, and the order of a multi field. The routes
 * by file id check `<attachment type>:read|write` of the record they load (see file-access.ts).
 */
@ApiTags('files')
@Controller('files')
// Its routes enforce what they declare whatever the application's global guards (see PermissionGuard).
@UseGuards(PermissionGuard)
export class FilesController {
  constructor(
    private readonly changes: FileChangesService,
    private readonly content: FileContentService,
    private readonly variants: FileVariants,
  ) {}

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
    return this.variants.toDto(await this.content.readable(principal, id));
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
  @ApiProblems(
    400,
    [404, 'No such file, or neither read nor write permission on its entity type'],
    TRANSACTION_CONFLICT_RESPONSE,
  )
  async remove(@Param('id', ParseIdPipe) id: number, @CurrentPrincipal() principal: Principal): Promise<void> {
    await this.changes.delete(principal, id);
  }

  @Put(':attachmentType/:attachmentId/:fieldName/order')
  @RequirePermission(attachmentTypePermission('write'))
  @ApiOperation({
    operationId: 'reorderFiles',
    summary: "Reorder a multi field's files; the list must name exactly its current files",
  })
  @ApiOkResponse({ type: [FileRecordDto], description: 'The field in its new order' })
  @ApiProblems(
    [400, 'Invalid body or id, or not a multi field'],
    [404, 'Unknown attachment type or field, or no such entity'],
    [409, 'The ids are not exactly the files the field holds now'],
    TRANSACTION_CONFLICT_RESPONSE,
  )
  async reorder(
    @Param('attachmentType') attachmentType: string,
    @Param('attachmentId', ParseIdPipe) attachmentId: number,
    @Param('fieldName') fieldName: string,
    @Body() body: ReorderFilesDto,
    @CurrentPrincipal() principal: Principal,
  ): Promise<FileRecordDto[]> {
    const reordered = await this.changes.reorder(principal, attachmentType, attachmentId, fieldName, body.ids);
    return Promise.all(reordered.map((record) => this.variants.toDto(record)));
  }
}
