import { applyDecorators, Body, Controller, Header, HttpCode, Post, Req } from '@nestjs/common';
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
import { originOf } from '../../../audit/index.js';
import { Public } from '@file-fields/nest';
import { OAUTH_REVOCATION_PATH, OAUTH_TOKEN_PATH } from '../../credentials/oauth-paths.js';
import type { TokenResponse } from '../../issuing/access-tokens.service.js';
import {
  OAuthErrorSchema,
  RevocationRequestSchema,
  TOKEN_REQUEST_GRANTS,
  TOKEN_REQUEST_SCHEMA,
  TokenResponseSchema,
} from './token.schemas.js';
import { TokenEndpointService } from './token-endpoint.service.js';
import { TokenRevocationService } from './token-revocation.service.js';

@ApiTags('oauth')
@ApiExtraModels(...TOKEN_REQUEST_GRANTS)
@Public()
@Controller()
export class TokenController {
  constructor(
    private readonly endpoint: TokenEndpointService,
    private readonly revocation: TokenRevocationService,
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
}

/** The token and revocation endpoints' error answers: RFC 6749 error bodies, not problem details. */
function OAuthErrors(...responses: Array<[status: number, description: string]>) {
  return applyDecorators(
    ...responses.map(([status, description]) => ApiResponse({ status, description, type: OAuthErrorSchema })),
  );
}
