import { Inject, Injectable } from '@nestjs/common';
import { Clock } from '@file-fields/nest';
import {
  ADMIN_CLIENT_ID,
  ADMIN_CLIENT_NAME,
  authenticateAdministrationClient,
} from '../credentials/administration-client.js';
import { OAUTH_CLIENT_ID_PATTERN, secretMatches } from '../credentials/client-secrets.js';
import { ADMIN_REDIRECT_PATH } from '../credentials/oauth-paths.js';
import type { OAuthClient } from '../repositories/entities/oauth-client.entity.js';
import { OAuthClientsRepository } from '../repositories/oauth-clients.repository.js';
import type { ClientCredentials } from '../credentials/token-request.js';
import { OAuthError } from '../credentials/oauth-error.js';
import { tokenConfig, type TokenConfig } from '../token.config.js';

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
    private readonly registered: OAuthClientsRepository,
    private readonly clock: Clock,
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
    const found = await this.findRegistered(clientId);
    return found ? registeredClient(found) : undefined;
  }

  /** A registered client; an id of another shape is not looked up. */
  private findRegistered(clientId: string): Promise<OAuthClient | null> {
    if (!OAUTH_CLIENT_ID_PATTERN.test(clientId)) return Promise.resolve(null);
    return this.registered.findByClientId(clientId);
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
    const found = await this.findRegistered(credentials.clientId);
    if (found?.public) {
      if (credentials.method !== 'none')
        throw OAuthError.invalidClient(`${found.name} is a public client: it has no secret.`, usedBasic);
    } else if (
      !found ||
      credentials.clientSecret === undefined ||
      !secretMatches(found, credentials.clientSecret, this.clock.nowMs())
    ) {
      throw OAuthError.invalidClient('Unknown client, or a missing or wrong client secret.', usedBasic);
    }
    return registeredClient(found);
  }
}
