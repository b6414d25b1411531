import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Req, Res } from '@nestjs/common';
import {
  ApiBody,
  ApiConsumes,
  ApiCreatedResponse,
  ApiExtraModels,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiProduces,
  ApiTags,
  getSchemaPath,
} from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { RequirePermission } from '../common/auth/auth.decorators.js';
import { ParseIdPipe } from '../common/pipes/parse-id.pipe.js';
import { FileRecordDto } from './file-record.dto.js';
import { FilesService } from './files.service.js';
import { FileChangesService } from './file-changes.service.js';
import { FileContentService } from './file-content.service.js';
import { filePermission } from './download/file-type-lookup.middleware.js';
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
  async upload(
    @Param('attachmentType') attachmentType: string,
    @Param('attachmentId', ParseIdPipe) attachmentId: number,
    @Param('fieldName') fieldName: string,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<FileRecordDto | FileRecordDto[]> {
    const result = await this.files.upload({ attachmentType, attachmentId, fieldName }, req, res);
    res.status(result.created ? 201 : 200);
    const records = result.records.map((record) => FileRecordDto.from(record));
    return records.length === 1 ? records[0] : records;
  }

  @Get(':id')
  @RequirePermission(filePermission('read'))
  @ApiOperation({ summary: 'Get one file record' })
  @ApiOkResponse({ type: FileRecordDto })
  async get(@Param('id', ParseIdPipe) id: number): Promise<FileRecordDto> {
    return FileRecordDto.from(await this.content.record(id));
  }

  @Get(':id/content')
  @RequirePermission(filePermission('read'))
  @ApiOperation({
    summary: 'Download the bytes of a file',
    description: 'Streams with ETag, Last-Modified and one byte range (206); If-None-Match gives 304, a bad range 416.',
  })
  @ApiProduces('application/octet-stream')
  async download(@Param('id', ParseIdPipe) id: number, @Req() req: Request, @Res() res: Response): Promise<void> {
    const record = await this.content.record(id);
    await sendContent(record, req, res, (range) => this.content.open(record, range));
  }

  @Delete(':id')
  @RequirePermission(filePermission('write'))
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete a file; the rest of its field is renumbered 0..n-1' })
  @ApiNoContentResponse({ description: 'Deleted' })
  async remove(@Param('id', ParseIdPipe) id: number): Promise<void> {
    await this.changes.delete(id);
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
    const records = await this.changes.reorder(attachmentType, attachmentId, fieldName, body.ids);
    return records.map((record) => FileRecordDto.from(record));
  }
}
