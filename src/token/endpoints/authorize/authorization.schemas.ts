import { applyDecorators } from '@nestjs/common';
import {
  ApiExtraModels,
  ApiProperty,
  ApiPropertyOptional,
  ApiQuery,
  ApiResponse,
  ApiSchema,
  getSchemaPath,
} from '@nestjs/swagger';
import { PROBLEM_CONTENT_TYPE, FieldViolationSchema, ValidationProblemDetailsSchema } from '@file-fields/nest';
import { ADMIN_REDIRECT_PATH } from '../../credentials/oauth-paths.js';

/** The OpenAPI side of the authorization endpoint: its parameters, the form it posts, its pages and redirects. */

const PARAMETERS = {
  response_type: { enum: ['code'], description: 'Only `code` (authorization code flow)' },
  client_id: {
    description:
      '`administration` (the administration interface) or the client_id of a registered application (`app_…`)',
    example: 'administration',
  },
  redirect_uri: {
    description: `Exactly a URI registered for the client (the administration interface: \`<issuer>${ADMIN_REDIRECT_PATH}\`)`,
  },
  scope: {
    description:
      "Space-separated permissions, within the client's ceiling; defaults to the client's default scope (the " +
      'administration interface: everything the role grants)',
  },
  state: {
    description:
      'Echoed to the redirect URI unchanged; at most 1000 characters (a longer one: invalid_request, not echoed)',
  },
  code_challenge: { description: 'PKCE: BASE64URL(SHA-256(code_verifier)), 43 characters (RFC 7636)' },
  code_challenge_method: { enum: ['S256'], description: 'Only `S256`' },
};
const REQUIRED = ['response_type', 'client_id', 'redirect_uri', 'code_challenge', 'code_challenge_method'];

/** The query of GET /api/oauth/authorize. */
export function ApiAuthorizationQuery() {
  return applyDecorators(
    ...Object.entries(PARAMETERS).map(([name, schema]) =>
      ApiQuery({ name, required: REQUIRED.includes(name), schema: { type: 'string', ...schema } }),
    ),
  );
}

@ApiSchema({
  name: 'AuthorizationSignInForm',
  description: 'The sign-in page posts the authorization request back with the credentials and its CSRF token',
})
export class AuthorizationSignInFormSchema {
  @ApiProperty(PARAMETERS.response_type) response_type!: string;
  @ApiProperty(PARAMETERS.client_id) client_id!: string;
  @ApiProperty(PARAMETERS.redirect_uri) redirect_uri!: string;
  @ApiPropertyOptional(PARAMETERS.scope) scope?: string;
  @ApiPropertyOptional(PARAMETERS.state) state?: string;
  @ApiProperty(PARAMETERS.code_challenge) code_challenge!: string;
  @ApiProperty(PARAMETERS.code_challenge_method) code_challenge_method!: string;
  @ApiPropertyOptional({
    description: 'The sign-in form: its token as the page gave it, bound to the oauth_sign_in cookie',
  })
  csrf_token?: string;
  @ApiPropertyOptional({
    description:
      'The consent form: its token as the page gave it, bound to the oauth_sign_in cookie, the person who signed in ' +
      'and the scope shown',
  })
  consent_token?: string;
  @ApiPropertyOptional({
    enum: ['sign-in', 'cancel', 'allow', 'deny'],
    description: '`cancel` (sign-in form) and `deny` (consent form) send access_denied to the client',
  })
  action?: string;
  @ApiPropertyOptional() username?: string;
  @ApiPropertyOptional({ format: 'password' }) password?: string;
}

const HTML = { 'text/html': { schema: { type: 'string' } } };
/** A 400 is a page, or a problem document for what the service refuses before the endpoint reads it (a NUL byte). */
const PAGE_OR_PROBLEM = {
  ...HTML,
  [PROBLEM_CONTENT_TYPE]: { schema: { $ref: getSchemaPath(ValidationProblemDetailsSchema) } },
};
const LOCATION = {
  Location: { description: 'The redirect URI with the response parameters', schema: { type: 'string' } },
};

/** Responses that are pages (text/html) or redirects (a Location, no body). */
export function ApiPages(...responses: Array<[status: number, description: string]>) {
  return applyDecorators(
    ApiExtraModels(ValidationProblemDetailsSchema, FieldViolationSchema),
    ...responses.map(([status, description]) =>
      status >= 300 && status < 400
        ? ApiResponse({ status, description, headers: LOCATION })
        : ApiResponse({ status, description, content: status === 400 ? PAGE_OR_PROBLEM : HTML }),
    ),
  );
}
