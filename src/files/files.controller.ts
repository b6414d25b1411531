import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Req, Res } from '@nestjs/common';
import {
  ApiBody,
  ApiConsumes,
  ApiCreatedResponse,
  ApiExtraModels,
  ApiNoContentResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiProduces,
  ApiTags,
  ApiTooManyRequestsResponse,
  getSchemaPath,
} from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Authenticated, RequirePermission } from '../common/auth/auth.decorators.js';
import { CurrentPrincipal } from '../common/auth/current-principal.decorator.js';
import type { Principal } from '../common/auth/principal.js';
import { ParseIdPipe } from '../common/pipes/parse-id.pipe.js';
import { FileRecordDto } from './file-record.dto.js';
import { FilesService } from './files.service.js';
import { FileChangesService } from './file-changes.service.js';
import { FileContentService } from './file-content.service.js';
import { sendContent } from './download/send-content.js';
import { ReorderFilesDto } from './dto/reorder-files.dto.js';

const oneOrMany = {
  oneOf: [{ $ref: getSchemaPath(FileRecordDto) }, { type: 'array', items: { $ref: getSchemaPath(FileRecordDto) } }],
};

@ApiTags('files')
@ApiExtraModels(FileRecordDto)
@Controller('files')
export class FilesController {
  constructor(
    private readonly files: FilesService,
    private readonly changes: FileChangesService,
    private readonly content: FileContentService,
  ) {}

  @Post(':attachmentType/:attachmentId/:fieldName')
  @RequirePermission((req) => `${String(req.params.attachmentType)}:write`)
  @ApiOperation({
    summary: 'Upload a file to one field of one entity',
    description:
      'Single field: creates the record (201) or replaces its file keeping the same id (200). ' +
      'Multi field: appends (201); several `file` parts append in order and answer an array.',
  })
  @ApiConsumes('multipart/form-data')
  @ApiBody({
    schema: { type: 'object', required: ['file'], properties: { file: { type: 'string', format: 'binary' } } },
  })
  @ApiCreatedResponse({ description: 'Record(s) created', schema: oneOrMany })
  @ApiOkResponse({ description: 'Single field: file replaced', type: FileRecordDto })
  @ApiTooManyRequestsResponse({ description: 'UPLOADS_PER_PRINCIPAL uploads of this client are in flight' })
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
    const bodies = result.records.map((record) => FileRecordDto.from(record));
    return bodies.length === 1 ? bodies[0] : bodies;
  }

  // The routes by file id check `<attachment type>:read|write` of the record they load (see file-access.ts).

  @Get(':id')
  @Authenticated()
  @ApiOperation({
    summary: 'Get one file record',
    description:
      "Needs `<attachment type>:read` of the file's entity; without it the file is answered as missing (404).",
  })
  @ApiOkResponse({ type: FileRecordDto })
  @ApiNotFoundResponse({ description: 'No such file, or no permission to read files of its entity type' })
  async get(@Param('id', ParseIdPipe) id: number, @CurrentPrincipal() principal: Principal): Promise<FileRecordDto> {
    return FileRecordDto.from(await this.content.readable(principal, id));
  }

  @Get(':id/content')
  @Authenticated()
  @ApiOperation({
    summary: 'Download the bytes of a file',
    description:
      "Needs `<attachment type>:read` of the file's entity (else 404). Streams with ETag, Last-Modified and one " +
      'byte range (206); If-None-Match gives 304, a bad range 416.',
  })
  @ApiProduces('application/octet-stream')
  @ApiNotFoundResponse({ description: 'No such file, or no permission to read files of its entity type' })
  async download(
    @Param('id', ParseIdPipe) id: number,
    @CurrentPrincipal() principal: Principal,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    const record = await this.content.readable(principal, id);
    await sendContent(record, req, res, (range) => this.content.open(record, range));
  }

  @Delete(':id')
  @Authenticated()
  @HttpCode(204)
  @ApiOperation({
    summary: 'Delete a file; the rest of its field is renumbered 0..n-1',
    description: "Needs `<attachment type>:write` of the file's entity: 403 with only `:read`, 404 with neither.",
  })
  @ApiNoContentResponse({ description: 'Deleted' })
  @ApiNotFoundResponse({ description: 'No such file, or neither read nor write permission on its entity type' })
  async remove(@Param('id', ParseIdPipe) id: number, @CurrentPrincipal() principal: Principal): Promise<void> {
    await this.changes.delete(principal, id);
  }

  @Put(':attachmentType/:attachmentId/:fieldName/order')
  @RequirePermission((req) => `${String(req.params.attachmentType)}:write`)
  @ApiOperation({ summary: "Reorder a multi field's files; the list must name exactly its current files" })
  @ApiOkResponse({ type: [FileRecordDto] })
  async reorder(
    @Param('attachmentType') attachmentType: string,
    @Param('attachmentId', ParseIdPipe) attachmentId: number,
    @Param('fieldName') fieldName: string,
    @Body() body: ReorderFilesDto,
  ): Promise<FileRecordDto[]> {
    const reordered = await this.changes.reorder(attachmentType, attachmentId, fieldName, body.ids);
    return reordered.map((record) => FileRecordDto.from(record));
  }
}
