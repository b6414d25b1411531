import { applyDecorators } from '@nestjs/common';
import { ApiConsumes, ApiHeader, ApiNoContentResponse, ApiResponse } from '@nestjs/swagger';
import { ApiProblems } from '../../../openapi/api-problems.js';
import { DRAFT_INTEROP_VERSION, INTEROP_HEADER, PARTIAL_UPLOAD } from './draft-headers.js';

/*
 * What the IETF resumable upload draft adds to the operations tus shares with it (the upload POST, and HEAD, PATCH
 * and DELETE on the upload resource), so that each route declares both protocols with one decorator per protocol.
 */

const DRAFT = 'IETF draft (draft-ietf-httpbis-resumable-upload-15)';
const header = (description: string) => ({ description, schema: { type: 'string' } });

const INTEROP = {
  name: INTEROP_HEADER,
  required: false,
  description: `${DRAFT}: the interop version, ${DRAFT_INTEROP_VERSION}; another is refused (412), none gets no 104`,
  schema: { type: 'integer', enum: [DRAFT_INTEROP_VERSION] },
};
const UPLOAD_COMPLETE = (meaning: string) => ({
  name: 'Upload-Complete',
  required: false,
  description: `${DRAFT}: \`?1\` ${meaning}, \`?0\` more follows`,
  schema: { type: 'string', enum: ['?1', '?0'] },
});
const MALFORMED_VERSION = [400, `${DRAFT}: ${INTEROP_HEADER} is not an Integer`] as const;

/** The upload POST: creation by the draft, with or without the first bytes, or the whole file. */
export function ApiDraftCreation() {
  return applyDecorators(
    ApiHeader(UPLOAD_COMPLETE('this request carries the whole file (its answer is the record)')),
    ApiHeader({ name: 'Upload-Length', required: false, description: `${DRAFT} too: the whole length in bytes` }),
    ApiHeader({
      name: 'Content-Disposition',
      required: false,
      description: `${DRAFT}: the file's name, \`inline; filename="photo.png"\``,
    }),
    ApiHeader(INTEROP),
  );
}

/** HEAD on the upload resource, as the draft answers it. */
export function ApiDraftOffset() {
  return applyDecorators(
    ApiHeader(INTEROP),
    ApiNoContentResponse({
      description: `${DRAFT}: the upload state, in headers (Cache-Control: no-store)`,
      headers: {
        'Upload-Complete': header('?0: an upload exists until it completes (then 404)'),
        'Upload-Offset': header('Bytes stored'),
        'Upload-Length': header('The whole length, once known'),
        'Upload-Limit': header('`max-size=<bytes>, max-age=<seconds left>`'),
      },
    }),
    ApiProblems(MALFORMED_VERSION),
  );
}

/** PATCH on the upload resource, as the draft takes it; its 204 is tus's, with Upload-Complete: ?0. */
export function ApiDraftAppend() {
  const record = (description: string) => ({
    description: `${DRAFT}: the upload completed ${description} (Upload-Complete: ?1)`,
    content: { 'application/json': { schema: { $ref: '#/components/schemas/FileRecord' } } },
  });
  return applyDecorators(
    ApiHeader(UPLOAD_COMPLETE('this body ends the file')),
    ApiHeader(INTEROP),
    ApiConsumes(PARTIAL_UPLOAD),
    ApiResponse({ status: 201, ...record('into a new file record') }),
    ApiResponse({ status: 200, ...record("replacing a single field's file") }),
  );
}

/** DELETE on the upload resource. */
export function ApiDraftCancel() {
  return applyDecorators(ApiHeader(INTEROP), ApiProblems(MALFORMED_VERSION));
}
