import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';

/** The OpenAPI schema of an RFC 9457 problem details document, the body of every error outside the token endpoint. */
@ApiSchema({ name: 'ProblemDetails', description: 'RFC 9457 problem details (application/problem+json)' })
export class ProblemDetailsSchema {
  @ApiProperty({
    description:
      'A URI reference naming the problem: `/problems/<code>` (listed in docs/api.md, Errors), a type registered ' +
      'with IANA (`https://iana.org/assignments/http-problem-types#…`, the IETF resumable upload draft), or about:blank',
    example: '/problems/not-found',
  })
  type!: string;

  @ApiProperty({ example: 'Not Found' }) title!: string;
  @ApiProperty({ type: 'integer', minimum: 400, maximum: 599, example: 404 }) status!: number;
  @ApiProperty({ description: 'What went wrong with this request, for a person', example: 'No product 7' })
  detail!: string;

  @ApiPropertyOptional({ description: 'The path of the request', example: '/products/7' })
  instance?: string;

  @ApiPropertyOptional({ description: '403: the permission the token lacks', example: 'product:write' })
  required_permission?: string;

  @ApiPropertyOptional({ type: [String], description: 'A grant of more than the caller holds: what it lacks' })
  missing_permissions?: string[];

  @ApiPropertyOptional({ description: '500: quote it to the operator; the log holds the same id' })
  error_id?: string;
}

/** One field a request's validation refused. */
@ApiSchema({ name: 'FieldViolation' })
export class FieldViolationSchema {
  @ApiProperty({ description: 'Property path, e.g. `name` or `ids.2`', example: 'name' }) field!: string;
  @ApiProperty({ type: [String], example: ['name is required'] }) messages!: string[];
}

/** A 400 from validation: problem details plus one entry per offending field. */
@ApiSchema({ name: 'ValidationProblemDetails' })
export class ValidationProblemDetailsSchema extends ProblemDetailsSchema {
  @ApiPropertyOptional({
    type: () => [FieldViolationSchema],
    description:
      'Every offending field (validation-failed; a refusal of one field, such as unsafe-webhook-url, names it here too)',
  })
  errors?: FieldViolationSchema[];
}
