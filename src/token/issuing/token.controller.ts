import { applyDecorators, Inject, Body, Controller, Get, Header, HttpCode, Post, Req } from '@nestjs/common';
import {
  ApiBody,
  ApiConsumes,
  ApiExtraModels,
  ApiOkResponse,
  ApiOperation,
  ApiResponse,
  ApiTags,
} from '@nestjs/swagger';
import type { Request } from 'express';
import { originOf } from '../../audit/index.js';
import { Public } from '../../common/auth/auth.decorators.js';
import { OAUTH_REVOCATION_PATH, OAUTH_TOKEN_PATH } from '../oauth-error.js';
import { tokenConfig, type TokenConfig } from '../token.config.js';
import type { TokenResponse } from '../grants/grant.js';
import { SigningKeysService } from '../signing/signing-keys.service.js';
import {
  AuthorizationServerMetadataSchema,
  JsonWebKeySetSchema,
  OAuthErrorSchema,
  RevocationRequestSchema,
  TOKEN_REQUEST_GRANTS,
  TOKEN_REQUEST_SCHEMA,
  TokenResponseSchema,
} from './token.schemas.js';
import { TokenEndpointService } from './token-endpoint.service.js';
import { TokenRevocationService } from '../revocation/token-revocation.service.js';
import { PermissionCatalog } from '../admin/permissions/permission-catalog.service.js';
import { OAUTH_AUTHORIZE_PATH } from '../authorization/authorization.controller.js';

/** How clients authenticate at the token and revocation endpoints (RFC 8414). */
const CLIENT_AUTH_METHODS = ['client_secret_basic', 'client_secret_post', 'none'];

@ApiTags('oauth')
@ApiExtraModels(...TOKEN_REQUEST_GRANTS)
@Public()
@Controller()
export class TokenController {
  /** The RFC 8414 document: it depends only on the configuration and the permissions, so it is built once. */
  private metadataDocument?: object;

  constructor(
    private readonly endpoint: TokenEndpointService,
    private readonly revocation: TokenRevocationService,
    private readonly keys: SigningKeysService,
    private readonly permissions: PermissionCatalog,
    @Inject(tokenConfig.KEY) private readonly config: TokenConfig,
  ) {}

  @Post(OAUTH_TOKEN_PATH)
  @HttpCode(200)
  @Header('Cache-Control', 'no-store')
  @Header('Pragma', 'no-cache')
  @ApiOperation({
    operationId: 'getToken',
    summary: 'Obtain an access token (OAuth 2.0)',
    description:
      'client_credentials for integrations (HTTP Basic or client_secret_post, JSON or form); authorization_code ' +
      'with PKCE and refresh_token for the administration interface (client_id "administration") and registered ' +
      'applications (a public one by its client_id, a confidential one with its secret); unless ' +
      'OAUTH_PASSWORD_GRANT=off, password (client_id "administration"). A refresh token works only for the client ' +
      'it was issued to. Access tokens are ES256 JWTs valid for one hour. Errors are RFC 6749 bodies.',
  })
  @ApiConsumes('application/x-www-form-urlencoded', 'application/json')
  @ApiBody({ schema: TOKEN_REQUEST_SCHEMA })
  @ApiOkResponse({ type: TokenResponseSchema, description: 'A new access token (and refresh token)' })
  @OAuthErrors(
    [400, 'invalid_request, invalid_grant, unsupported_grant_type, invalid_scope, unauthorized_client'],
    [401, 'invalid_client: unknown client or wrong secret'],
    [413, 'The body is too large'],
    [429, 'Too many failed attempts from this address or for this client; see Retry-After'],
    [503, 'temporarily_unavailable; see Retry-After'],
  )
  token(@Body() body: unknown, @Req() req: Request): Promise<TokenResponse> {
    return this.endpoint.token(body, req.headers.authorization, originOf(req));
  }

  @Post(OAUTH_REVOCATION_PATH)
  @HttpCode(200)
  @Header('Cache-Control', 'no-store')
  @Header('Pragma', 'no-cache')
  @ApiOperation({
    operationId: 'revokeToken',
    summary: 'Revoke a refresh token, ending its sign-in (OAuth 2.0 Token Revocation, RFC 7009)',
    description:
      'The client authenticates as at the token endpoint (client_id "administration" or a public application ' +
      "without a secret; a confidential application's or an integration's credentials). A refresh token issued to " +
      'that client ends its whole sign-in: every refresh token of the rotation chain and the access tokens issued ' +
      "under it. Any other token (an access token, an unknown, expired or revoked one, another client's) is " +
      'answered the same, with nothing changed. Errors are RFC 6749 bodies.',
  })
  @ApiConsumes('application/x-www-form-urlencoded', 'application/json')
  @ApiBody({ type: RevocationRequestSchema })
  @ApiOkResponse({ description: 'Revoked, or nothing to revoke (RFC 7009 §2.2); the body is empty' })
  @OAuthErrors(
    [400, 'invalid_request: the token parameter is missing, or the request is malformed'],
    [401, 'invalid_client: unknown client or wrong secret'],
    [413, 'The body is too large'],
    [429, 'Too many failed attempts from this address or for this client; see Retry-After'],
  )
  revoke(@Body() body: unknown, @Req() req: Request): Promise<void> {
    return this.revocation.revoke(body, req.headers.authorization, originOf(req));
  }

  @Get('.well-known/jwks.json')
  @ApiOperation({ operationId: 'getJwks', summary: 'The public keys that verify access tokens (RFC 7517)' })
  @ApiOkResponse({ type: JsonWebKeySetSchema })
  jwks(): object {
    return this.keys.jwks();
  }

  @Get('.well-known/oauth-authorization-server')
  @ApiOperation({ operationId: 'getAuthorizationServerMetadata', summary: 'Authorization server metadata (RFC 8414)' })
  @ApiOkResponse({ type: AuthorizationServerMetadataSchema })
  metadata(): object {
    // On the first request: the permission catalog is read when the application has started.
    this.metadataDocument ??= this.buildMetadata();
    return this.metadataDocument;
  }

  private buildMetadata(): object {
    const { issuer } = this.config;
    return {
      issuer,
      authorization_endpoint: `${issuer}${OAUTH_AUTHORIZE_PATH}`,
      token_endpoint: `${issuer}${OAUTH_TOKEN_PATH}`,
      jwks_uri: `${issuer}/.well-known/jwks.json`,
      grant_types_supported: this.endpoint.grantTypes,
      token_endpoint_auth_methods_supported: CLIENT_AUTH_METHODS,
      revocation_endpoint: `${issuer}${OAUTH_REVOCATION_PATH}`,
      revocation_endpoint_auth_methods_supported: CLIENT_AUTH_METHODS,
      response_types_supported: ['code'],
      code_challenge_methods_supported: ['S256'],
      // The redirect back carries `iss` (RFC 9207), so a client talking to several servers tells them apart.
      authorization_response_iss_parameter_supported: true,
      // What a token request's `scope` may name: the permission catalog, `*` first.
      scopes_supported: this.permissions.list().map((entry) => entry.permission),
    };
  }
}

/** The token and revocation endpoints' error answers: RFC 6749 error bodies, not problem details. */
function OAuthErrors(...responses: Array<[status: number, description: string]>) {
  return applyDecorators(
    ...responses.map(([status, description]) => ApiResponse({ status, description, type: OAuthErrorSchema })),
  );
}
