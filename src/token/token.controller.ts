import { Inject, Body, Controller, Get, Header, HttpCode, Post, Req } from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { originOf } from '../audit/index.js';
import { Public } from '../common/auth/auth.decorators.js';
import { OAUTH_TOKEN_PATH } from './oauth-error.js';
import { tokenConfig, type TokenConfig } from './token.config.js';
import type { TokenResponse } from './grants/grant.js';
import { SigningKeysService } from './signing-keys.service.js';
import { TokenEndpointService } from './token-endpoint.service.js';

@ApiTags('oauth')
@Public()
@Controller()
export class TokenController {
  /** The RFC 8414 document: it depends only on the configuration, so it is built once. */
  private readonly metadataDocument: object;

  constructor(
    private readonly endpoint: TokenEndpointService,
    private readonly keys: SigningKeysService,
    @Inject(tokenConfig.KEY) config: TokenConfig,
  ) {
    const { issuer } = config;
    this.metadataDocument = {
      issuer,
      token_endpoint: `${issuer}${OAUTH_TOKEN_PATH}`,
      jwks_uri: `${issuer}/.well-known/jwks.json`,
      grant_types_supported: endpoint.grantTypes,
      token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
      response_types_supported: [],
      scopes_supported: ['*'],
    };
  }

  @Post(OAUTH_TOKEN_PATH)
  @HttpCode(200)
  @Header('Cache-Control', 'no-store')
  @Header('Pragma', 'no-cache')
  @ApiOperation({
    summary: 'Obtain an access token (OAuth 2.0)',
    description:
      'client_credentials (Basic or client_secret_post, JSON or form), password and refresh_token ' +
      '(client_id "administration"). Errors are RFC 6749 bodies.',
  })
  @ApiConsumes('application/json', 'application/x-www-form-urlencoded')
  @ApiBody({
    schema: {
      type: 'object',
      required: ['grant_type'],
      properties: Object.fromEntries(
        ['grant_type', 'client_id', 'client_secret', 'scope', 'username', 'password', 'refresh_token'].map((name) => [
          name,
          { type: 'string' },
        ]),
      ),
    },
  })
  token(@Body() body: unknown, @Req() req: Request): Promise<TokenResponse> {
    return this.endpoint.token(body, req.headers.authorization, originOf(req));
  }

  @Get('.well-known/jwks.json')
  @ApiOperation({ summary: 'The public keys that verify access tokens (RFC 7517)' })
  jwks(): object {
    return this.keys.jwks();
  }

  @Get('.well-known/oauth-authorization-server')
  @ApiOperation({ summary: 'Authorization server metadata (RFC 8414)' })
  metadata(): object {
    return this.metadataDocument;
  }
}
