import { copyRow as copy, type Public } from '@file-fields/nest/testing';
import type { Page, PageQuery, Clock, UnitOfWork } from '@file-fields/nest';
import { OAuthClient } from '../repositories/entities/oauth-client.entity.js';
import type {
  NewOAuthClient,
  OAuthClientEdits,
  OAuthClientsRepository,
} from '../repositories/oauth-clients.repository.js';
import { AuthorizationCode } from '../repositories/entities/authorization-code.entity.js';
import { OAuthGrant } from '../repositories/entities/oauth-grant.entity.js';
import type { OAuthGrantsRepository } from '../repositories/oauth-grants.repository.js';
import { OAuthClientsService } from '../admin/oauth-clients/oauth-clients.service.js';
import { EVERY_PERMISSION } from '../credentials/permission-catalog.js';
import type { PermissionCatalog } from '../credentials/permission-catalog.service.js';
import type { RefreshTokensRepository } from '../repositories/refresh-tokens.repository.js';
import type { SubjectStatusService } from '../revocation/subject-status.service.js';
import { asReal } from './in-memory-repositories.js';
import type {
  AuthorizationCodesRepository,
  NewAuthorizationCode,
} from '../repositories/authorization-codes.repository.js';

/* eslint-disable @typescript-eslint/require-await -- the fakes answer at once, with the repositories' signatures */

/** In-memory registered OAuth clients, for unit specs (see in-memory-repositories.ts). */
export class FakeOAuthClientsRepository implements Public<OAuthClientsRepository> {
  readonly rows: OAuthClient[] = [];
  private nextId = 1;

  /** Oldest first; no search or sort (specs of the list use the database). */
  page = async ({ limit, offset }: PageQuery): Promise<Page<OAuthClient>> => ({
    items: this.rows.slice(offset, offset + limit).map(copy),
    total: this.rows.length,
    limit,
    offset,
  });
  findByClientId = async (clientId: string) => this.copyOf(this.rows.find((row) => row.clientId === clientId));
  findForUpdate = async (clientId: string) => this.findByClientId(clientId);
  create = async (client: NewOAuthClient) => {
    const row = Object.assign(new OAuthClient(), client, { id: this.nextId++, createdAt: new Date() });
    row.updatedAt = row.createdAt;
    this.rows.push(row);
    return copy(row);
  };
  applyEdits = async (id: number, edits: OAuthClientEdits) => {
    const row = this.rows.find((stored) => stored.id === id);
    if (!row) throw new Error(`No OAuth client ${id}`);
    return copy(Object.assign(row, structuredClone(edits), { updatedAt: new Date() }));
  };
  delete = async (id: number) => {
    this.rows.splice(0, this.rows.length, ...this.rows.filter((row) => row.id !== id));
  };

  private copyOf(row: OAuthClient | undefined): OAuthClient | null {
    return row ? copy(row) : null;
  }
}

/** In-memory authorization codes, for unit specs. */
export class FakeAuthorizationCodesRepository implements Public<AuthorizationCodesRepository> {
  readonly rows: AuthorizationCode[] = [];
  private nextId = 1;

  insert = async (code: NewAuthorizationCode) => {
    this.rows.push(Object.assign(new AuthorizationCode(), code, { id: this.nextId++, usedAt: null, familyId: null }));
  };
  findByHash = async (codeHash: string) => {
    const row = this.rows.find((stored) => stored.codeHash === codeHash);
    return row ? copy(row) : null;
  };
  claim = async (id: number, now: number) => {
    const row = this.rows.find((stored) => stored.id === id && stored.usedAt === null);
    if (row) row.usedAt = now;
    return row !== undefined;
  };
  recordSignIn = async (id: number, familyId: string) => {
    for (const row of this.rows) if (row.id === id) row.familyId = familyId;
  };
  deleteForClient = async (clientId: string) => this.keep((row) => row.clientId !== clientId);
  deleteForUserAtClient = async (userId: number, clientId: string) =>
    this.keep((row) => row.userId !== userId || row.clientId !== clientId);
  deleteExpired = async (before: number) => this.keep((row) => row.expiresAt >= before);

  private keep(kept: (row: AuthorizationCode) => boolean): void {
    this.rows.splice(0, this.rows.length, ...this.rows.filter(kept));
  }
}

/** In-memory remembered consents, for unit specs. */
export class FakeOAuthGrantsRepository implements Public<OAuthGrantsRepository> {
  readonly rows: OAuthGrant[] = [];
  private nextId = 1;

  find = async (userId: number, clientId: string) => {
    const row = this.rows.find((stored) => stored.userId === userId && stored.clientId === clientId);
    return row ? copy(row) : null;
  };
  pageOfUser = async (userId: number, limit: number, offset: number) => {
    const mine = this.rows.filter((row) => row.userId === userId).reverse();
    return { items: mine.slice(offset, offset + limit).map(copy), total: mine.length };
  };
  remember = async (userId: number, clientId: string, scopes: readonly string[], now: number) => {
    const row = this.rows.find((stored) => stored.userId === userId && stored.clientId === clientId);
    if (row) Object.assign(row, { scopes: [...new Set([...row.scopes, ...scopes])], grantedAt: now });
    else
      this.rows.push(Object.assign(new OAuthGrant(), { id: this.nextId++, userId, clientId, scopes, grantedAt: now }));
  };
  delete = async (userId: number, clientId: string) => {
    const before = this.rows.length;
    this.keep((row) => row.userId !== userId || row.clientId !== clientId);
    return this.rows.length < before;
  };
  deleteForClient = async (clientId: string) => this.keep((row) => row.clientId !== clientId);

  private keep(kept: (row: OAuthGrant) => boolean): void {
    this.rows.splice(0, this.rows.length, ...this.rows.filter(kept));
  }
}

/**
 * An OAuthClientsService on in-memory repositories; the permission catalog knows `*` and `permissions`, and a
 * rotated-out secret works for `graceSeconds`.
 */
export function fakeOAuthClientsService(deps: {
  /** The store, when a test reads it beside the service (as AuthorizationClients does). */
  clients?: FakeOAuthClientsRepository;
  codes?: FakeAuthorizationCodesRepository;
  refreshTokens: Public<RefreshTokensRepository>;
  status: SubjectStatusService;
  unitOfWork: UnitOfWork;
  clock: Clock;
  permissions?: string[];
  graceSeconds?: number;
}): OAuthClientsService {
  const catalog = {
    onApplicationBootstrap: () => undefined,
    list: () => [
      EVERY_PERMISSION,
      ...(deps.permissions ?? []).map((permission) => ({ ...EVERY_PERMISSION, permission })),
    ],
  };
  return new OAuthClientsService(
    asReal(deps.clients ?? new FakeOAuthClientsRepository()),
    asReal(deps.codes ?? new FakeAuthorizationCodesRepository()),
    asReal(deps.refreshTokens),
    deps.status,
    deps.unitOfWork,
    deps.clock,
    asReal<PermissionCatalog>(catalog),
    asReal(new FakeOAuthGrantsRepository()),
    { secretRotationGrace: deps.graceSeconds ?? 0 },
  );
}
