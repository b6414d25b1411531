import { Injectable } from '@nestjs/common';
import type { AuditOrigin } from '../audit/index.js';
import { OAuthError } from './oauth-error.js';
import { ClientCredentialsGrant } from './grants/client-credentials.grant.js';
import { ADMIN_CLIENT_ID, type Grant, type TokenResponse } from './grants/grant.js';
import { PasswordGrant } from './grants/password.grant.js';
import { RefreshTokenGrant } from './grants/refresh-token.grant.js';
import { TokenFailureLimiter, type AttemptAccount } from './token-failure-limiter.js';
import { parseTokenRequest, type TokenRequest } from './token-request.js';

/** The token endpoint's logic: parse, take a point from the failure limits, run the grant, settle the point. */
@Injectable()
export class TokenEndpointService {
  private readonly grants: ReadonlyMap<string, Grant>;

  constructor(
    private readonly limiter: TokenFailureLimiter,
    clientCredentials: ClientCredentialsGrant,
    password: PasswordGrant,
    refreshToken: RefreshTokenGrant,
  ) {
    this.grants = new Map([clientCredentials, password, refreshToken].map((grant) => [grant.type, grant]));
  }

  get grantTypes(): string[] {
    return [...this.grants.keys()];
  }

  /** `origin.sourceIp` is the address the failure limits count against (`unknown` when express has none). */
  async token(body: unknown, authorization: string | undefined, origin: AuditOrigin): Promise<TokenResponse> {
    const ip = origin.sourceIp ?? 'unknown';
    let request: TokenRequest;
    try {
      request = parseTokenRequest(body, authorization);
    } catch (error) {
      // A malformed request names no account it could be counted against reliably: only its address pays.
      await this.limiter.begin(undefined, ip);
      throw error;
    }
    const attempt = await this.limiter.begin(accountOf(request), ip);
    try {
      const response = await this.grantFor(request).handle(request, origin);
      await attempt.succeeded();
      return response;
    } catch (error) {
      if (!(error instanceof OAuthError) || error.status >= 500) await attempt.refund();
      throw error;
    }
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

/**
 * What a request's failures count against: the username of a password attempt (never the shared administration
 * client, which would let anyone lock every administrator out), otherwise the client_id, from the body or Basic.
 */
function accountOf(request: TokenRequest): AttemptAccount {
  if (request.grantType === 'password') {
    const username = request.params.username;
    return username ? { kind: 'user', name: username } : undefined;
  }
  if (request.client.clientId === ADMIN_CLIENT_ID) return undefined;
  return { kind: 'client', name: request.client.clientId };
}
