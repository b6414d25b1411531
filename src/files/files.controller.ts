import { Controller, Param, Post, Req, Res } from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiCreatedResponse, ApiExtraModels, ApiOkResponse, ApiOperation, ApiTags, getSchemaPath } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { RequirePermission } from '../common/auth/auth.decorators.js';
import { ParseIdPipe } from '../common/pipes/parse-id.pipe.js';
import { FileRecordDto } from './file-record.dto.js';
import { FilesService } from './files.service.js';

const oneOrMany = {
  oneOf: [{ $ref: getSchemaPath(FileRecordDto) }, { type: 'array', items: { $ref: getSchemaPath(FileRecordDto) } }],
};

@ApiTags('files')
@ApiExtraModels(FileRecordDto)
@Controller('files')
export class FilesController {
  constructor(private readonly files: FilesService) {}

  @Post(':attachmentType/:attachmentId/:fieldName')
  @RequirePermission((req) => `${String(req.params.attachmentType)}:write`)
  @ApiOperation({
    summary: 'Upload a file to one field of one entity',
    description:
      'Single field: creates the record (201) or replaces its file keeping the same id (200). ' +
      'Multi field: appends (201); several `file` parts append in order and answer an array.',
  })
  @ApiConsumes('multipart/form-data')
  @ApiBody({ schema: { type: 'object', required: ['file'], properties: { file: { type: 'string', format: 'binary' } } } })
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
}
