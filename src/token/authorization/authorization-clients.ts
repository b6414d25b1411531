import { Inject, Injectable } from '@nestjs/common';
import { ADMIN_CLIENT_NAME } from '../admin/oauth-clients/client-names.js';
import type { OAuthClient } from '../admin/oauth-clients/oauth-client.entity.js';
import { OAUTH_CLIENT_ID_PATTERN, OAuthClientsService } from '../admin/oauth-clients/oauth-clients.service.js';
import { authenticateAdministrationClient } from '../grants/administration-client.js';
import { ADMIN_CLIENT_ID } from '../grants/grant.js';
import type { ClientCredentials } from '../issuing/token-request.js';
import { OAuthError } from '../oauth-error.js';
import { tokenConfig, type TokenConfig } from '../token.config.js';

/** Where the administration interface receives its authorization code: a page of its own, under the issuer. */
export const ADMIN_REDIRECT_PATH = '/admin/callback';

/**
 * Whether `clientId` has the shape of a client people sign in to (the administration interface or a registered
 * application), rather than of an integration, which only uses client_credentials.
 */
export function namesAuthorizationClient(clientId: string): boolean {
  return clientId === ADMIN_CLIENT_ID || OAUTH_CLIENT_ID_PATTERN.test(clientId);
}

/** A client of the authorization endpoint. */
export interface AuthorizationClient {
  clientId: string;
  /** Shown on the sign-in page. */
  name: string;
  /** Compared by exact string (RFC 9700 §4.1.3): no pattern, no normalization. */
  redirectUris: readonly string[];
  /** The ceiling of what its tokens carry (`*` for the administration interface). */
  scopes: readonly string[];
  /** What a request without `scope` gets; null: the ceiling. */
  defaultScopes: readonly string[] | null;
  /** The administration interface: the service's own, so people are not asked to consent to it. */
  builtIn: boolean;
}

function registeredClient(found: OAuthClient): AuthorizationClient {
  const { clientId, name, redirectUris, scopes, defaultScopes } = found;
  return { clientId, name, redirectUris, scopes, defaultScopes, builtIn: false };
}

/**
 * The clients that may send people to the sign-in page: the administration interface, a public client built in,
 * and the applications registered through /api/oauth/clients, public or confidential.
 */
@Injectable()
export class AuthorizationClients {
  private readonly admin: AuthorizationClient;

  constructor(
    @Inject(tokenConfig.KEY) config: TokenConfig,
    private readonly registered: OAuthClientsService,
  ) {
    this.admin = {
      clientId: ADMIN_CLIENT_ID,
      name: ADMIN_CLIENT_NAME,
      redirectUris: [`${config.issuer}${ADMIN_REDIRECT_PATH}`],
      scopes: ['*'],
      defaultScopes: null,
      builtIn: true,
    };
  }

  async find(clientId: string): Promise<AuthorizationClient | undefined> {
    if (clientId === ADMIN_CLIENT_ID) return this.admin;
    const found = await this.registered.find(clientId);
    return found ? registeredClient(found) : undefined;
  }

  /**
   * The client of a token request, authenticated as RFC 6749 §2.3 asks: a public client sends no secret, a
   * confidential one its secret (Basic or in the body, compared in constant time). Anything else is invalid_client,
   * one answer for an unknown client and a wrong secret.
   */
  async authenticate(credentials: ClientCredentials): Promise<AuthorizationClient> {
    if (credentials.clientId === ADMIN_CLIENT_ID) {
      authenticateAdministrationClient(credentials);
      return this.admin;
    }
    const usedBasic = credentials.method === 'client_secret_basic';
    const found = await this.registered.find(credentials.clientId);
    if (found?.public) {
      if (credentials.method !== 'none')
        throw OAuthError.invalidClient(`${found.name} is a public client: it has no secret.`, usedBasic);
    } else if (
      !found ||
      credentials.clientSecret === undefined ||
      !this.registered.secretMatches(found, credentials.clientSecret)
    ) {
      throw OAuthError.invalidClient('Unknown client, or a missing or wrong client secret.', usedBasic);
    }
    return registeredClient(found);
  }
}
