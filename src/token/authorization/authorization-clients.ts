import { Inject, Injectable } from '@nestjs/common';
import { ADMIN_CLIENT_ID } from '../grants/grant.js';
import { tokenConfig, type TokenConfig } from '../token.config.js';

/** Where the administration interface receives its authorization code: a page of its own, under the issuer. */
export const ADMIN_REDIRECT_PATH = '/admin/callback';

/** A client of the authorization endpoint. */
export interface AuthorizationClient {
  clientId: string;
  /** Shown on the sign-in page. */
  name: string;
  /** Compared by exact string (RFC 9700 §4.1.3): no pattern, no normalization. */
  redirectUris: readonly string[];
}

/** The clients that may send people to the sign-in page: the administration interface, a public client. */
@Injectable()
export class AuthorizationClients {
  private readonly clients: ReadonlyMap<string, AuthorizationClient>;

  constructor(@Inject(tokenConfig.KEY) config: TokenConfig) {
    const admin: AuthorizationClient = {
      clientId: ADMIN_CLIENT_ID,
      name: 'the administration interface',
      redirectUris: [`${config.issuer}${ADMIN_REDIRECT_PATH}`],
    };
    this.clients = new Map([[admin.clientId, admin]]);
  }

  find(clientId: string): AuthorizationClient | undefined {
    return this.clients.get(clientId);
  }
}
