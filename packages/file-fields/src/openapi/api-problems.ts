import { applyDecorators } from '@nestjs/common';
import { ApiExtraModels, ApiResponse, getSchemaPath } from '@nestjs/swagger';
import { PROBLEM_CONTENT_TYPE } from '../errors/problem-details.js';
import {
  FieldViolationSchema,
  ProblemDetailsSchema,
  ValidationProblemDetailsSchema,
} from './problem-details.schema.js';

/** What each error status means in this API, unless a route says more. */
const MEANINGS: Record<number, string> = {
  400: 'The request is invalid: the problem names each offending field',
  401: 'Missing, malformed, expired or revoked access token',
  403: 'The token lacks the permission',
  404: 'No such resource',
  409: 'Conflicts with the current state',
  413: 'Too large',
  415: 'Unsupported media type',
  416: 'The range cannot be satisfied',
  429: 'Too many requests; retry after the Retry-After header',
  503: 'Not available at the moment; retry after the Retry-After header',
  507: 'The file storage is full',
};

/** An error status of a route, with its own description (else the API-wide meaning of the status). */
export type ProblemResponse = number | readonly [status: number, description: string];

/**
 * Documents error responses as `application/problem+json` with the shared `ProblemDetails` schema (400: with the
 * field list). Routes list the statuses they can answer: e.g. `@ApiProblems(400, [404, 'No such product'], 409)`.
 */
export function ApiProblems(...responses: ProblemResponse[]) {
  return applyDecorators(
    ApiExtraModels(ProblemDetailsSchema, ValidationProblemDetailsSchema, FieldViolationSchema),
    ...responses.map((response) => {
      const [status, description] = typeof response === 'number' ? [response, MEANINGS[response]] : response;
      const schema = status === 400 ? ValidationProblemDetailsSchema : ProblemDetailsSchema;
      return ApiResponse({
        status,
        description: description ?? `HTTP ${status}`,
        content: { [PROBLEM_CONTENT_TYPE]: { schema: { $ref: getSchemaPath(schema) } } },
      });
    }),
  );
}
