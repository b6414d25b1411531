import { Inject, Injectable } from '@nestjs/common';
import { Clock, UnitOfWork, type Transaction } from '@file-fields/nest';
import type { Page, PageQuery } from '@file-fields/nest';
import type { Principal } from '../../../common/auth/principal.js';
import { ValidationFailedError } from '@file-fields/nest';
import { OAuthGrantsRepository } from '../../repositories/oauth-grants.repository.js';
import { AuthorizationCodesRepository } from '../../repositories/authorization-codes.repository.js';
import { OAUTH_CLIENT_ID_PATTERN } from '../../credentials/client-secrets.js';
import { randomToken, sha256Hex } from '../../crypto/secrets.js';
import { ADMIN_CLIENT_ID } from '../../credentials/administration-client.js';
import { RefreshTokensRepository } from '../../repositories/refresh-tokens.repository.js';
import { SubjectStatusService } from '../../revocation/subject-status.service.js';
import { TokenAdminError, TokenAdminErrorCode } from '../../token-admin.errors.js';
import { tokenConfig, type TokenConfig } from '../../token.config.js';
import { assertHolds } from '../permissions/grant-policy.js';
import { PermissionCatalog } from '../../credentials/permission-catalog.service.js';
import { grants } from '../../credentials/scopes.js';
import type { OAuthClient } from '../../repositories/entities/oauth-client.entity.js';
import { OAuthClientsRepository, type OAuthClientEdits } from '../../repositories/oauth-clients.repository.js';

/** 32 random bytes; the `ffcs_` prefix lets secret scanners recognise a leaked one. */
function newSecret(): string {
  return `ffcs_${randomToken(32)}`;
}

export interface OAuthClientInput {
  name: string;
  redirect_uris: string[];
  public: boolean;
  /** The ceiling. */
  scopes: string[];
  /** Absent or null: the ceiling. */
  default_scopes?: string[] | null;
}

export type OAuthClientChanges = Partial<
  Pick<OAuthClientInput, 'name' | 'redirect_uris' | 'scopes' | 'default_scopes'>
>;

/** A client as registered or rotated, with the secret of a confidential one shown this once. */
export interface RegisteredClient {
  client: OAuthClient;
  secret?: string;
}

/**
 * Applications registered for the authorization code flow. A registration grants nothing by itself: the tokens a
 * client gets carry at most what the person who signed in holds, within the client's ceiling (`scopes`), which its
 * registrar must hold. Changing, rotating or deleting a client takes every permission of its ceiling (the escalation
 * rule of roles): whoever could redirect its sign-ins could take what they carry. The built-in `administration` client is not
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
    private readonly catalog: PermissionCatalog,
    private readonly grants: OAuthGrantsRepository,
    @Inject(tokenConfig.KEY) private readonly config: Pick<TokenConfig, 'secretRotationGrace'>,
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
    const defaultScopes = this.checkScopes(input.scopes, input.default_scopes, actor, `register "${input.name}"`);
    const secret = input.public ? undefined : newSecret();
    const client = await this.clients.create({
      clientId: `app_${randomToken(16)}`,
      name: input.name,
      redirectUris: input.redirect_uris,
      public: input.public,
      scopes: input.scopes,
      defaultScopes: defaultScopes ?? null,
      secretHash: secret ? sha256Hex(secret) : null,
      createdBy: actor.subject,
    });
    return { client, secret };
  }

  /**
   * A new name, redirect URIs or scopes; codes already issued stay bound to the redirect URI they were issued for. A
   * narrower ceiling narrows the next refresh of every sign-in made at the client. A redirect URI added forgets the
   * consents given to the client: people allowed it to send their sign-ins where the consent page showed, not to a
   * place added since, so their next sign-in there asks again.
   */
  update(clientId: string, input: OAuthClientChanges, actor: Principal): Promise<OAuthClient> {
    const forgetConsents = async (found: OAuthClient, tx: Transaction) => {
      const added = input.redirect_uris?.some((uri) => !found.redirectUris.includes(uri));
      if (added) await this.grants.deleteForClient(found.clientId, tx.manager);
    };
    return this.change(clientId, actor, 'change', forgetConsents, (found) => {
      const scopes = input.scopes ?? found.scopes;
      const defaults =
        input.scopes !== undefined || input.default_scopes !== undefined
          ? this.checkScopes(
              scopes,
              input.default_scopes === undefined ? found.defaultScopes : input.default_scopes,
              actor,
              `change "${found.name}"`,
            )
          : undefined;
      return {
        ...(input.name !== undefined ? { name: input.name } : {}),
        ...(input.redirect_uris !== undefined ? { redirectUris: input.redirect_uris } : {}),
        ...(input.scopes !== undefined ? { scopes } : {}),
        ...(defaults !== undefined ? { defaultScopes: defaults } : {}),
      };
    });
  }

  /**
   * A new secret for a confidential client; the old one keeps working for SECRET_ROTATION_GRACE (a day by default), as an
   * integration's does, so two rotations at once both hand out a working secret (the row lock orders them). Its
   * refresh tokens stay valid, to be refreshed with the new secret, and its access tokens run until they expire.
   */
  async rotateSecret(clientId: string, actor: Principal): Promise<RegisteredClient> {
    const secret = newSecret();
    const client = await this.change(clientId, actor, 'rotate the secret of', undefined, (found) => {
      if (found.public) {
        throw new TokenAdminError(
          TokenAdminErrorCode.PublicClient,
          `${found.name} is a public client: it has no secret.`,
        );
      }
      return {
        secretHash: sha256Hex(secret),
        previousSecretHash: found.secretHash,
        previousSecretExpiresAt: this.clock.nowMs() + this.config.secretRotationGrace * 1000,
      };
    });
    return { client, secret };
  }

  /** Ends a rotation's grace now: only the newest secret works from here on. */
  expirePreviousSecret(clientId: string, actor: Principal): Promise<OAuthClient> {
    return this.change(clientId, actor, 'expire the previous secret of', undefined, () => ({
      previousSecretHash: null,
      previousSecretExpiresAt: null,
    }));
  }

  /**
   * The default scope to store (null: the ceiling), after checking the ceiling: permissions the service knows, each
   * held by `actor` (403 privilege-escalation otherwise), and a default scope inside it (400).
   */
  private checkScopes(
    scopes: readonly string[],
    defaults: readonly string[] | null | undefined,
    actor: Principal,
    action: string,
  ): string[] | null {
    const known = new Set(this.catalog.list().map((entry) => entry.permission));
    const unknown = scopes.filter((scope) => !known.has(scope));
    if (unknown.length > 0) {
      throw new ValidationFailedError([
        {
          field: 'scopes',
          messages: [`not permissions the service knows (GET /api/permissions): ${unknown.join(', ')}`],
        },
      ]);
    }
    assertHolds(actor, scopes, action);
    if (defaults === undefined || defaults === null) return null;
    // Under a `*` ceiling, a default scope naming no permission would be offered on every consent page.
    const outside = defaults.filter((scope) => !grants(scopes, scope) || !known.has(scope));
    if (outside.length > 0) {
      throw new ValidationFailedError([
        {
          field: 'default_scopes',
          messages: [`must be permissions of scopes the service knows; not so: ${outside.join(', ')}`],
        },
      ]);
    }
    return [...defaults];
  }

  /**
   * Deletes the client and ends everything it was issued: its codes, so none can be redeemed any more, and its
   * sign-ins, so their refresh tokens fail and their access tokens (which carry their sign-in) are refused on every
   * instance. The codes go first: on PostgreSQL that waits for a redemption in flight, whose sign-in the revocation
   * then sees (a refresh in flight is caught by its family's check, as for any revoked sign-in).
   */
  async remove(clientId: string, actor: Principal): Promise<void> {
    await this.unitOfWork.run(async (tx) => {
      const found = await this.locked(tx, clientId, actor, 'delete');
      await this.codes.deleteForClient(found.clientId, tx.manager);
      await this.grants.deleteForClient(found.clientId, tx.manager);
      await this.refreshTokens.revokeAllOfClient(found.clientId, this.clock.nowMs(), tx.manager);
      await this.clients.delete(found.id, tx.manager);
    });
    this.status.invalidateClient(clientId);
  }

  /**
   * Applies `edit` with the row locked from the read it decides on to the write, if `actor` may touch the client;
   * `also` runs in the same transaction, after the edit is decided.
   */
  private change(
    clientId: string,
    actor: Principal,
    action: string,
    also: ((found: OAuthClient, tx: Transaction) => Promise<void>) | undefined,
    edit: (found: OAuthClient) => OAuthClientEdits,
  ): Promise<OAuthClient> {
    return this.unitOfWork.run(async (tx) => {
      const found = await this.locked(tx, clientId, actor, action);
      const edits = edit(found);
      await also?.(found, tx);
      return this.clients.applyEdits(found.id, edits, tx.manager);
    });
  }

  /** The client, locked, if `actor` holds every permission of its ceiling (else 403; 404 if there is none). */
  private async locked(tx: Transaction, clientId: string, actor: Principal, action: string): Promise<OAuthClient> {
    const found = OAUTH_CLIENT_ID_PATTERN.test(clientId) ? await this.clients.findForUpdate(clientId, tx) : null;
    if (!found) throw notFound(clientId);
    assertHolds(actor, found.scopes, `${action} the OAuth client "${found.name}"`);
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
