import { applyDecorators } from '@nestjs/common';
import { ApiResponse } from '@nestjs/swagger';

/** Any stored type: the content type is the one sniffed at upload. */
const BINARY = { '*/*': { schema: { type: 'string', format: 'binary' } } };

/** The headers of a route that serves stored bytes (sendContent). */
export const CONTENT_HEADERS = {
  ETag: { description: 'Strong validator of the content', schema: { type: 'string' } },
  'Last-Modified': { schema: { type: 'string' } },
  'Accept-Ranges': { schema: { type: 'string', enum: ['bytes'] } },
  'Content-Disposition': { description: 'attachment, with the original name', schema: { type: 'string' } },
};

/** The answers of a route that serves stored bytes (sendContent): the whole content, one byte range, or 304. */
export function ApiContentResponses(whole: string, headers: Record<string, object> = CONTENT_HEADERS) {
  return applyDecorators(
    ApiResponse({ status: 200, description: whole, content: BINARY, headers }),
    ApiResponse({ status: 206, description: 'The requested byte range', content: BINARY, headers }),
    ApiResponse({ status: 304, description: 'If-None-Match matched: the copy the client holds is current' }),
  );
}
