import { Controller, Get, Param, Query, Req, Res, UseGuards } from '@nestjs/common';
import { ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Public } from '../../auth/auth.decorators.js';
import { ApiProblems } from '../../openapi/api-problems.js';
import { ParseIdPipe } from '../../common/parse-id.pipe.js';
import { ApiContentResponses, CONTENT_HEADERS } from '../download/api-content-responses.js';
import { sendContent } from '../download/send-content.js';
import { FileContentService } from '../access/file-content.service.js';
import type { ByteRange } from '../../storage/file-storage.js';
import { SignedFileContent, VARIANT_NAME, type SignedUrlQuery } from './signed-file-content.js';
import { SIGNATURE_PATTERN } from './url-signer.js';
import { PermissionGuard } from '../../auth/permission.guard.js';

/** The signed route's headers: those of the content route, and how long the URL (and so the copy) stays valid. */
const SIGNED_CONTENT_HEADERS = {
  ...CONTENT_HEADERS,
  'Cache-Control': { description: '`private, max-age=<seconds until the URL expires>`', schema: { type: 'string' } },
};

/** The bytes of a file (or of one of its variants) through the signed URL of its record: no token, no guard. */
@ApiTags('files')
@Controller('files')
// Its routes enforce what they declare whatever the application's global guards (see PermissionGuard).
@UseGuards(PermissionGuard)
export class SignedFilesController {
  constructor(
    private readonly content: FileContentService,
    private readonly signed: SignedFileContent,
  ) {}

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
}
