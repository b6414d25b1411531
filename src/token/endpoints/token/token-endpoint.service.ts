import { Inject, Injectable } from '@nestjs/common';
import type { AuditOrigin } from '../../../audit/index.js';
import { OAuthError } from '../../credentials/oauth-error.js';
import { ClientCredentialsGrant } from '../../grants/client-credentials.grant.js';
import { AuthorizationCodeGrant } from '../../grants/authorization-code.grant.js';
import { enabledGrantTypes, type Grant } from '../../grants/grant.js';
import type { TokenResponse } from '../../issuing/access-tokens.service.js';
import { PasswordGrant } from '../../grants/password.grant.js';
import { RefreshTokenGrant } from '../../grants/refresh-token.grant.js';
import { clientAccount, TokenFailureLimiter, type AttemptAccount } from '../../limits/token-failure-limiter.js';
import { tokenConfig, type TokenConfig } from '../../token.config.js';
import { parseTokenRequest, type TokenRequest } from '../../credentials/token-request.js';

/** The token endpoint's logic: parse, run the grant, within the failure limits. */
@Injectable()
export class TokenEndpointService {
  private readonly grants: ReadonlyMap<string, Grant>;

  constructor(
    private readonly limiter: TokenFailureLimiter,
    @Inject(tokenConfig.KEY) config: TokenConfig,
    authorizationCode: AuthorizationCodeGrant,
    clientCredentials: ClientCredentialsGrant,
    password: PasswordGrant,
    refreshToken: RefreshTokenGrant,
  ) {
    const enabled = enabledGrantTypes(config);
    const grants = [authorizationCode, clientCredentials, password, refreshToken];
    this.grants = new Map(grants.filter((grant) => enabled.includes(grant.type)).map((grant) => [grant.type, grant]));
  }

  /** `origin.sourceIp` is the address the failure limits count against (`unknown` when express has none). */
  token(body: unknown, authorization: string | undefined, origin: AuditOrigin): Promise<TokenResponse> {
    return this.limiter.limited(
      origin.sourceIp ?? 'unknown',
      () => parseTokenRequest(body, authorization),
      accountOf,
      (request) => this.grantFor(request).handle(request, origin),
    );
  }

  private grantFor(request: TokenRequest): Grant {
    const grant = this.grants.get(request.grantType);
    if (grant) return grant;
    throw new OAuthError(
      'unsupported_grant_type',
      `The grant type "${request.grantType.slice(0, 64)}" is not supported.`,
    );
  }
}

/** What a request's failures count against: the username of a password attempt, otherwise its client. */
function accountOf(request: TokenRequest): AttemptAccount {
  if (request.grantType !== 'password') return clientAccount(request.client);
  const username = request.params.username;
  return username ? { kind: 'user', name: username } : undefined;
}
