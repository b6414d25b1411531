import { Injectable } from '@nestjs/common';
import { ClientCredentialsGrant } from './grants/client-credentials.grant.js';
import type { Grant, TokenResponse } from './grants/grant.js';
import { PasswordGrant } from './grants/password.grant.js';
import { RefreshTokenGrant } from './grants/refresh-token.grant.js';
import { OAuthError } from '../common/errors/oauth-error.js';
import { TokenFailureLimiter } from './token-failure-limiter.js';
import { parseTokenRequest } from './token-request.js';

/** The token endpoint's logic: parse, check the failure limit, run the grant, count the outcome. */
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

  async token(body: unknown, authorization: string | undefined, ip: string): Promise<TokenResponse> {
    const clientHint = clientIdHint(body);
    await this.limiter.assertAllowed(clientHint, ip);
    try {
      const request = parseTokenRequest(body, authorization);
      const grant = this.grants.get(request.grantType);
      if (!grant)
        throw new OAuthError(
          'unsupported_grant_type',
          `The grant type "${request.grantType.slice(0, 64)}" is not supported.`,
        );
      const response = await grant.handle(request);
      await this.limiter.recordSuccess(request.client.clientId);
      return response;
    } catch (error) {
      if (error instanceof OAuthError) await this.limiter.recordFailure(clientHint, ip);
      throw error;
    }
  }
}

/** The client_id to count failures against, read leniently (the request may be malformed). */
function clientIdHint(body: unknown): string | undefined {
  const value = (body as { client_id?: unknown } | null)?.client_id;
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}
