import { ApiProperty, ApiPropertyOptional, ApiSchema, getSchemaPath } from '@nestjs/swagger';
import type { OAuthErrorCode } from '../../credentials/oauth-error.js';

/** The OpenAPI schemas of the token and revocation endpoints and the discovery documents (built elsewhere). */

const OAUTH_ERROR_CODES: OAuthErrorCode[] = [
  'invalid_request',
  'invalid_client',
  'invalid_grant',
  'unauthorized_client',
  'unsupported_grant_type',
  'invalid_scope',
  'temporarily_unavailable',
];

const SCOPE = { description: 'Space-separated permissions; defaults to everything the role grants' };
const ADMINISTRATION = { enum: ['administration'], description: 'The administration interface, a public client' };
const SIGN_IN_CLIENT = {
  description:
    '`administration` (the administration interface) or the client_id of a registered application (`app_…`); ' +
    'may be left out when HTTP Basic carries it',
  example: 'administration',
};
const CLIENT_SECRET = {
  description: "A confidential application's secret (or HTTP Basic); public clients send none",
  format: 'password',
};

@ApiSchema({
  name: 'ClientCredentialsTokenRequest',
  description: 'An integration: its access key id and secret in the body, or in HTTP Basic (then neither here)',
})
class ClientCredentialsTokenRequestSchema {
  @ApiProperty({ enum: ['client_credentials'] }) grant_type!: 'client_credentials';
  @ApiPropertyOptional({ description: 'The access key id of an integration' }) client_id?: string;
  @ApiPropertyOptional({ description: 'The secret access key', format: 'password' }) client_secret?: string;
  @ApiPropertyOptional(SCOPE) scope?: string;
}

@ApiSchema({
  name: 'AuthorizationCodeTokenRequest',
  description:
    'The administration interface or a registered application exchanges the code of a sign-in for tokens ' +
    '(PKCE, RFC 7636)',
})
class AuthorizationCodeTokenRequestSchema {
  @ApiProperty({ enum: ['authorization_code'] }) grant_type!: 'authorization_code';
  @ApiPropertyOptional(SIGN_IN_CLIENT) client_id?: string;
  @ApiPropertyOptional(CLIENT_SECRET) client_secret?: string;
  @ApiProperty({ description: 'The code the authorization endpoint sent to the redirect URI; once, within 60 s' })
  code!: string;
  @ApiProperty({ description: 'The redirect_uri of the authorization request, the same string' })
  redirect_uri!: string;
  @ApiProperty({ description: 'PKCE: the secret the code_challenge was made from, 43 to 128 characters' })
  code_verifier!: string;
}

@ApiSchema({
  name: 'PasswordTokenRequest',
  description: 'A user of the administration interface signs in (unless OAUTH_PASSWORD_GRANT=off)',
})
class PasswordTokenRequestSchema {
  @ApiProperty({ enum: ['password'] }) grant_type!: 'password';
  @ApiProperty(ADMINISTRATION) client_id!: 'administration';
  @ApiProperty() username!: string;
  @ApiProperty({ format: 'password' }) password!: string;
  @ApiPropertyOptional(SCOPE) scope?: string;
}

@ApiSchema({
  name: 'RefreshTokenRequest',
  description: 'The client a sign-in was made at renews it; the refresh token works for that client only',
})
class RefreshTokenRequestSchema {
  @ApiProperty({ enum: ['refresh_token'] }) grant_type!: 'refresh_token';
  @ApiPropertyOptional(SIGN_IN_CLIENT) client_id?: string;
  @ApiPropertyOptional(CLIENT_SECRET) client_secret?: string;
  @ApiProperty({ description: 'The latest refresh token of the sign-in' }) refresh_token!: string;
  @ApiPropertyOptional({ description: 'Space-separated permissions; defaults to those of the sign-in' })
  scope?: string;
}

const GRANTS = {
  authorization_code: AuthorizationCodeTokenRequestSchema,
  client_credentials: ClientCredentialsTokenRequestSchema,
  password: PasswordTokenRequestSchema,
  refresh_token: RefreshTokenRequestSchema,
};

/**
 * RFC 6749 token request: one schema per grant, told apart by `grant_type`, so that a generated client requires each
 * grant's own parameters. `title` names it as a component (see buildOpenApiDocument).
 */
export const TOKEN_REQUEST_SCHEMA = {
  title: 'TokenRequest',
  description: 'RFC 6749 token request, one schema per grant_type (form or JSON)',
  oneOf: Object.values(GRANTS).map((grant) => ({ $ref: getSchemaPath(grant) })),
  discriminator: {
    propertyName: 'grant_type',
    mapping: Object.fromEntries(Object.entries(GRANTS).map(([type, grant]) => [type, getSchemaPath(grant)])),
  },
};
export const TOKEN_REQUEST_GRANTS = Object.values(GRANTS);

@ApiSchema({ name: 'TokenResponse', description: 'RFC 6749 §5.1 successful response' })
export class TokenResponseSchema {
  @ApiProperty({ description: 'An ES256 JWT' }) access_token!: string;
  @ApiProperty({ enum: ['Bearer'] }) token_type!: string;
  @ApiProperty({ type: 'integer', example: 3600, description: 'Seconds until the access token expires' })
  expires_in!: number;
  @ApiProperty({ example: 'product:read article:read' }) scope!: string;
  @ApiPropertyOptional({
    description:
      'authorization_code, password and refresh_token grants: rotated on every refresh; the previous one works again only within ' +
      'REFRESH_REUSE_GRACE of its rotation, later it revokes the sign-in',
  })
  refresh_token?: string;
}

@ApiSchema({ name: 'RevocationRequest', description: 'RFC 7009 revocation request (JSON or form)' })
export class RevocationRequestSchema {
  @ApiProperty({ description: 'The token to revoke; a refresh token ends its whole sign-in' }) token!: string;
  @ApiPropertyOptional({
    description: '`refresh_token` or `access_token`: a hint only (every kind is looked up; other values are ignored)',
    example: 'refresh_token',
  })
  token_type_hint?: string;
  @ApiPropertyOptional({
    description: "`administration`, a registered application's client_id (`app_…`), or an integration's access key id",
  })
  client_id?: string;
  @ApiPropertyOptional({
    description: 'The secret of a confidential application or of an integration (or HTTP Basic)',
    format: 'password',
  })
  client_secret?: string;
}

@ApiSchema({ name: 'OAuthError', description: 'RFC 6749 §5.2 error response' })
export class OAuthErrorSchema {
  @ApiProperty({ enum: OAUTH_ERROR_CODES }) error!: string;
  @ApiPropertyOptional() error_description?: string;
}
