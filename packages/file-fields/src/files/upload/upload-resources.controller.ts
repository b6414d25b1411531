import { All, Controller, Delete, Head, Options, Param, Patch, Req, Res, UseGuards } from '@nestjs/common';
import {
  ApiConsumes,
  ApiExcludeEndpoint,
  ApiHeader,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiTags,
} from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Authenticated, Public } from '../../auth/auth.decorators.js';
import { CurrentPrincipal } from '../../auth/current-principal.decorator.js';
import type { Principal } from '../../auth/principal.js';
import { ApiProblems } from '../../openapi/api-problems.js';
import {
  ApiDraftAppend,
  ApiDraftCancel,
  ApiDraftOffset,
  methodNotAllowed,
  TUS_EXTENSIONS,
  TUS_VERSION,
  UploadResourceProtocols,
} from '../transports/upload-resource-protocols.js';
import { PermissionGuard } from '../../auth/permission.guard.js';

const TUS_RESUMABLE = {
  name: 'Tus-Resumable',
  required: false,
  description: `tus: the version, ${TUS_VERSION} (required by tus; the IETF draft sends none)`,
};
const UPLOAD_ID = { name: 'uploadId', description: 'The id from the Location the creation answered' };
const header = (description: string) => ({ description, schema: { type: 'string' } });
const NOT_FOUND = [404, "No such upload, or another principal's"] as const;
const GONE = [410, 'The upload expired'] as const;
const OLD_VERSION = [
  412,
  'Tus-Resumable is not 1.0.0 (Tus-Version names the versions spoken), or the IETF draft interop version is not ours',
] as const;

/**
 * A resumable upload resource (tus 1.0.0, or the IETF draft: UploadResourceProtocols chooses): its
 * offset, appending to it, ending it, and what the server speaks. Created by `POST /files/{type}/{id}/{field}` with
 * Tus-Resumable or Upload-Complete; only its creator can see or continue it, while it holds `<type>:write`.
 */
@ApiTags('files')
@Controller('files')
// Its routes enforce what they declare whatever the application's global guards (see PermissionGuard).
@UseGuards(PermissionGuard)
export class UploadResourcesController {
  constructor(private readonly protocols: UploadResourceProtocols) {}

  @Options('uploads/:uploadId')
  @Public()
  @ApiOperation({
    operationId: 'discoverTusUpload',
    summary: 'What the tus server speaks (no token needed)',
    description: `tus discovery: the version, the extensions (${TUS_EXTENSIONS}), the largest upload and the checksum algorithms.`,
  })
  @ApiParam(UPLOAD_ID)
  @ApiNoContentResponse({
    description: 'The headers say it',
    headers: {
      'Tus-Version': header('1.0.0'),
      'Tus-Extension': header(TUS_EXTENSIONS),
      'Tus-Max-Size': header('MAX_FILE_SIZE'),
      'Tus-Checksum-Algorithm': header('sha1,sha256,sha512,md5'),
    },
  })
  discover(@Res() res: Response): void {
    this.protocols.discover(res);
  }

  @Head('uploads/:uploadId')
  @Authenticated()
  @ApiOperation({
    operationId: 'getTusUploadOffset',
    summary: 'The offset of a resumable upload, to resume from',
    description: 'Upload-Offset, Upload-Length (or Upload-Defer-Length), Upload-Metadata and Upload-Expires.',
  })
  @ApiParam(UPLOAD_ID)
  @ApiHeader(TUS_RESUMABLE)
  @ApiOkResponse({
    description: 'The upload state, in headers (Cache-Control: no-store)',
    headers: { 'Upload-Offset': header('Bytes stored'), 'Upload-Length': header('The whole length, once known') },
  })
  @ApiDraftOffset()
  @ApiProblems(NOT_FOUND, GONE, OLD_VERSION)
  async head(
    @Param('uploadId') id: string,
    @CurrentPrincipal() principal: Principal,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    await this.protocols.head(id, principal, req, res);
  }

  @Patch('uploads/:uploadId')
  @Authenticated()
  @ApiOperation({
    operationId: 'appendTusUpload',
    summary: 'Append bytes to a resumable upload at its offset',
    description:
      "The body is appended at Upload-Offset, which must be the upload's. Upload-Length once, when creation " +
      'deferred it. Upload-Checksum (`sha256 <base64>`) checks this body: on a mismatch it is discarded (460). The ' +
      'request that brings the last byte creates the file record (File-Id), as a multipart upload would: the ' +
      "field's type, size, image and count rules apply, a refused type ends the upload (415). With the IETF draft's " +
      'headers (Upload-Complete, application/partial-upload) instead of Tus-Resumable: `Upload-Complete: ?1` ends the ' +
      'file, and the answer is then the file record (201, or 200 for a replaced single file) with Upload-Complete: ?1.',
  })
  @ApiParam(UPLOAD_ID)
  @ApiHeader(TUS_RESUMABLE)
  @ApiHeader({ name: 'Upload-Offset', required: true, description: 'Where this body starts' })
  @ApiHeader({ name: 'Upload-Checksum', required: false, description: '`<algorithm> <base64 digest>` of this body' })
  @ApiConsumes('application/offset+octet-stream')
  @ApiNoContentResponse({
    description: 'Appended',
    headers: {
      'Upload-Offset': header('Bytes stored now'),
      'Upload-Expires': header('When an unfinished upload expires'),
      'File-Id': header('The file record, once the upload completed'),
      'Upload-Complete': header('IETF draft: ?0, more may follow'),
    },
  })
  @ApiDraftAppend()
  @ApiProblems(
    [400, 'A malformed upload header, or a body that broke off (what arrived is kept)'],
    NOT_FOUND,
    [409, "Upload-Offset is not the upload's offset (the draft's answer names it), or the multi field is full"],
    GONE,
    OLD_VERSION,
    [413, "More bytes than the upload length, or a file over the field's limit"],
    [415, 'Not application/offset+octet-stream (tus) or application/partial-upload (draft), or a refused type'],
    [423, 'Another request is appending to this upload'],
    [429, 'UPLOADS_PER_PRINCIPAL uploads of this client are in flight; see Retry-After'],
    [460, 'Upload-Checksum does not match the body, which was discarded'],
    503,
    507,
  )
  async patch(
    @Param('uploadId') id: string,
    @CurrentPrincipal() principal: Principal,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    await this.protocols.patch(id, principal, req, res);
  }

  @Delete('uploads/:uploadId')
  @Authenticated()
  @ApiOperation({ operationId: 'terminateTusUpload', summary: 'End a resumable upload and remove its bytes' })
  @ApiParam(UPLOAD_ID)
  @ApiHeader(TUS_RESUMABLE)
  @ApiNoContentResponse({ description: 'Ended' })
  @ApiDraftCancel()
  @ApiProblems(NOT_FOUND, GONE, OLD_VERSION, [423, 'A request is appending to this upload'])
  async terminate(
    @Param('uploadId') id: string,
    @CurrentPrincipal() principal: Principal,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    await this.protocols.terminate(id, principal, req, res);
  }

  // Any other method on an upload resource; after the handlers above, which Express matches first.
  @All('uploads/:uploadId')
  @Public()
  @ApiExcludeEndpoint()
  notAllowed(): never {
    throw methodNotAllowed();
  }
}
