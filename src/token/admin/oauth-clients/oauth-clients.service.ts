import { Injectable } from '@nestjs/common';
import { Clock } from '../../../common/clock.js';
import type { Principal } from '../../../common/auth/principal.js';
import type { Page, PageQuery } from '../../../database/list-page.js';
import { UnitOfWork, type Transaction } from '../../../database/unit-of-work.js';
import { AuthorizationCodesRepository } from '../../authorization/authorization-codes.repository.js';
import { digestsEqual, randomToken, sha256Hex } from '../../crypto/secrets.js';
import { ADMIN_CLIENT_ID } from '../../grants/grant.js';
import { RefreshTokensRepository } from '../../repositories/refresh-tokens.repository.js';
import { SubjectStatusService } from '../../revocation/subject-status.service.js';
import { TokenAdminError, TokenAdminErrorCode } from '../../token-admin.errors.js';
import type { OAuthClient } from './oauth-client.entity.js';
import { OAuthClientsRepository, type OAuthClientEdits } from './oauth-clients.repository.js';

/** `app_` and 16 random bytes: public, but not to be guessed or enumerated. */
export const OAUTH_CLIENT_ID_PATTERN = /^app_[A-Za-z0-9_-]{22}$/;

/** 32 random bytes; the `ffcs_` prefix lets secret scanners recognise a leaked one. */
function newSecret(): string {
  return `ffcs_${randomToken(32)}`;
}

export interface OAuthClientInput {
  name: string;
  redirect_uris: string[];
  public: boolean;
}

/** A client as registered or rotated, with the secret of a confidential one shown this once. */
export interface RegisteredClient {
  client: OAuthClient;
  secret?: string;
}

/**
 * Applications registered for the authorization code flow. A registration grants nothing by itself: the tokens a
 * client gets carry at most what the person who signed in holds. The built-in `administration` client is not
 * stored here and cannot be read, changed or deleted through this API. A new secret leaves the sign-ins made at the
 * client standing (as Keycloak and Auth0 do: a rotation replaces a credential, it is no sign-out); deleting the client
 * ends them.
 */
@Injectable()
export class OAuthClientsService {
  constructor(
    private readonly clients: OAuthClientsRepository,
    private readonly codes: AuthorizationCodesRepository,
    private readonly refreshTokens: RefreshTokensRepository,
    private readonly status: SubjectStatusService,
    private readonly unitOfWork: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  page(query: PageQuery): Promise<Page<OAuthClient>> {
    return this.clients.page(query);
  }

  async get(clientId: string): Promise<OAuthClient> {
    const found = OAUTH_CLIENT_ID_PATTERN.test(clientId) ? await this.clients.findByClientId(clientId) : null;
    if (!found) throw notFound(clientId);
    return found;
  }

  /** The registered client with this id, or null (also for the built-in one and for ids of another shape). */
  find(clientId: string): Promise<OAuthClient | null> {
    if (!OAUTH_CLIENT_ID_PATTERN.test(clientId)) return Promise.resolve(null);
    return this.clients.findByClientId(clientId);
  }

  async create(input: OAuthClientInput, actor: Principal): Promise<RegisteredClient> {
    const secret = input.public ? undefined : newSecret();
    const client = await this.clients.create({
      clientId: `app_${randomToken(16)}`,
      name: input.name,
      redirectUris: input.redirect_uris,
      public: input.public,
      secretHash: secret ? sha256Hex(secret) : null,
      createdBy: actor.subject,
    });
    return { client, secret };
  }

  /** A new name or new redirect URIs; codes already issued stay bound to the redirect URI they were issued for. */
  update(clientId: string, input: Partial<Pick<OAuthClientInput, 'name' | 'redirect_uris'>>): Promise<OAuthClient> {
    return this.change(clientId, () => ({
      ...(input.name !== undefined ? { name: input.name } : {}),
      ...(input.redirect_uris !== undefined ? { redirectUris: input.redirect_uris } : {}),
    }));
  }

  /**
   * A new secret for a confidential client; the old one stops working at once. Its refresh tokens stay valid, to be
   * refreshed with the new secret, and its access tokens run until they expire.
   */
  async rotateSecret(clientId: string): Promise<RegisteredClient> {
    const secret = newSecret();
    const client = await this.change(clientId, (found) => {
      if (found.public) {
        throw new TokenAdminError(
          TokenAdminErrorCode.PublicClient,
          `${found.name} is a public client: it has no secret.`,
        );
      }
      return { secretHash: sha256Hex(secret) };
    });
    return { client, secret };
  }

  /**
   * Deletes the client and ends everything it was issued: its codes, so none can be redeemed any more, and its
   * sign-ins, so their refresh tokens fail and their access tokens (which carry their sign-in) are refused on every
   * instance. The codes go first: on PostgreSQL that waits for a redemption in flight, whose sign-in the revocation
   * then sees (a refresh in flight is caught by its family's check, as for any revoked sign-in).
   */
  async remove(clientId: string): Promise<void> {
    await this.unitOfWork.run(async (tx) => {
      const found = await this.locked(tx, clientId);
      await this.codes.deleteForClient(found.clientId, tx.manager);
      await this.refreshTokens.revokeAllOfClient(found.clientId, this.clock.nowMs(), tx.manager);
      await this.clients.delete(found.id, tx.manager);
    });
    this.status.invalidateClient(clientId);
  }

  /** Constant-time comparison of a presented secret with the stored hash; a public client never matches. */
  secretMatches(client: OAuthClient, secret: string): boolean {
    return client.secretHash !== null && digestsEqual(sha256Hex(secret), client.secretHash);
  }

  /** Applies `edit` with the row locked from the read it decides on to the write. */
  private change(clientId: string, edit: (found: OAuthClient) => OAuthClientEdits): Promise<OAuthClient> {
    return this.unitOfWork.run(async (tx) => {
      const found = await this.locked(tx, clientId);
      return this.clients.applyEdits(found.id, edit(found), tx.manager);
    });
  }

  private async locked(tx: Transaction, clientId: string): Promise<OAuthClient> {
    const found = OAUTH_CLIENT_ID_PATTERN.test(clientId) ? await this.clients.findForUpdate(clientId, tx) : null;
    if (!found) throw notFound(clientId);
    return found;
  }
}

function notFound(clientId: string): TokenAdminError {
  const builtIn = clientId === ADMIN_CLIENT_ID ? ' (the administration client is built in, not registered)' : '';
  return new TokenAdminError(
    TokenAdminErrorCode.OAuthClientNotFound,
    `No OAuth client ${JSON.stringify(clientId.slice(0, 64))} is registered${builtIn}.`,
  );
}
