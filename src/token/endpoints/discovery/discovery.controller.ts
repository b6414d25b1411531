import { Controller, Get, Inject, Req, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Public } from '@file-fields/nest';
import { ConstantDocument } from '../../../common/http/constant-document.js';
import { KeySetDocument } from '../../../common/http/key-set-document.js';
import {
  JWKS_PATH,
  METADATA_PATH,
  OAUTH_AUTHORIZE_PATH,
  OAUTH_REVOCATION_PATH,
  OAUTH_TOKEN_PATH,
} from '../../credentials/oauth-paths.js';
import { PermissionCatalog } from '../../credentials/permission-catalog.service.js';
import { enabledGrantTypes } from '../../grants/grant.js';
import { SigningKeysService } from '../../issuing/signing-keys.service.js';
import { tokenConfig, type TokenConfig } from '../../token.config.js';
import { AuthorizationServerMetadataSchema, JsonWebKeySetSchema } from './discovery.schemas.js';

/** How clients authenticate at the token and revocation endpoints (RFC 8414). */
const CLIENT_AUTH_METHODS = ['client_secret_basic', 'client_secret_post', 'none'];

const METADATA_MAX_AGE_SECONDS = 3600;

/**
 * What a client or a verifier discovers about the authorization server: the public keys (RFC 7517) and the metadata
 * (RFC 8414). Both are constant documents, serialized once (the key set again whenever the published keys change)
 * and answered 304 to a client that holds them.
 */
@ApiTags('oauth')
@Public()
@Controller()
export class DiscoveryController {
  private readonly jwksDocument = new KeySetDocument();
  private metadataDocument?: ConstantDocument;

  constructor(
    private readonly keys: SigningKeysService,
    private readonly permissions: PermissionCatalog,
    @Inject(tokenConfig.KEY) private readonly config: TokenConfig,
  ) {}

  @Get(JWKS_PATH)
  @ApiOperation({ operationId: 'getJwks', summary: 'The public keys that verify access tokens (RFC 7517)' })
  @ApiOkResponse({ type: JsonWebKeySetSchema })
  jwks(@Req() req: Request, @Res() res: Response): void {
    this.jwksDocument.send(this.keys.jwks(), req, res);
  }

  @Get(METADATA_PATH)
  @ApiOperation({ operationId: 'getAuthorizationServerMetadata', summary: 'Authorization server metadata (RFC 8414)' })
  @ApiOkResponse({ type: AuthorizationServerMetadataSchema })
  metadata(@Req() req: Request, @Res() res: Response): void {
    // On the first request: the permission catalog is read when the application has started.
    this.metadataDocument ??= new ConstantDocument(this.buildMetadata(), undefined, METADATA_MAX_AGE_SECONDS);
    this.metadataDocument.send(req, res);
  }

  private buildMetadata(): object {
    const { issuer } = this.config;
    return {
      issuer,
      authorization_endpoint: `${issuer}${OAUTH_AUTHORIZE_PATH}`,
      token_endpoint: `${issuer}${OAUTH_TOKEN_PATH}`,
      jwks_uri: `${issuer}${JWKS_PATH}`,
      grant_types_supported: enabledGrantTypes(this.config),
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
