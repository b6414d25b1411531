import { copyRow as copy, type Public } from '@file-fields/nest/testing';
import type { Page, PageQuery } from '@file-fields/nest';
import { Integration } from '../repositories/entities/integration.entity.js';
import { RefreshToken } from '../repositories/entities/refresh-token.entity.js';
import { Role } from '../repositories/entities/role.entity.js';
import { SigningKey, type SigningKeyPurpose } from '../repositories/entities/signing-key.entity.js';
import { User } from '../repositories/entities/user.entity.js';
import type { IntegrationEdits, IntegrationsRepository } from '../repositories/integrations.repository.js';
import type { RefreshTokensRepository } from '../repositories/refresh-tokens.repository.js';
import type { RoleEdits, RolesRepository } from '../repositories/roles.repository.js';
import type { NewSigningKey, SigningKeysRepository } from '../repositories/signing-keys.repository.js';
import type { UserEdits, UsersRepository } from '../repositories/users.repository.js';

// Re-exported so a spec takes all its fakes from its own module.
export { asReal, FakeClock, FakeUnitOfWork } from '@file-fields/nest/testing';

/* eslint-disable @typescript-eslint/require-await -- the fakes answer at once, with the repositories' signatures */

/*
 * In-memory stand-ins for the token module's repositories, for unit specs (no database). They
 * hand out copies, as a database does, so a service that changes an entity without saving it changes nothing.
 */

/** A table with integer ids, kept in id order. */
class Table<T extends { id: number }> {
  readonly rows: T[] = [];
  private nextId = 1;

  all(): T[] {
    return this.rows.map(copy);
  }

  find(match: (row: T) => boolean): T | null {
    const row = this.rows.find(match);
    return row ? copy(row) : null;
  }

  insert(row: T): T {
    row.id = this.nextId++;
    this.rows.push(copy(row));
    return copy(row);
  }

  save(row: T): T {
    const index = this.rows.findIndex((stored) => stored.id === row.id);
    if (index === -1) return this.insert(row);
    this.rows[index] = copy(row);
    return copy(row);
  }

  /** Writes only `edits` (`revoke` raises the token version, as the SQL does), and answers a copy of the row. */
  update(id: number, { revoke, ...edits }: Partial<T> & { revoke?: boolean }): T {
    const row = this.rows.find((stored) => stored.id === id);
    if (!row) throw new Error(`No row ${id}`);
    Object.assign(row, structuredClone(edits));
    if (revoke) (row as T & { tokenVersion: number }).tokenVersion += 1;
    return copy(row);
  }

  delete(id: number): void {
    const index = this.rows.findIndex((row) => row.id === id);
    if (index !== -1) this.rows.splice(index, 1);
  }
}

const now = () => new Date();

/** A page in id order; searching and sorting are the database's, tested against it (see list-page.spec.ts). */
const pageOf = <T>(rows: T[], { limit, offset }: PageQuery): Page<T> => ({
  items: rows.slice(offset, offset + limit),
  total: rows.length,
  limit,
  offset,
});

export class FakeRolesRepository implements Public<RolesRepository> {
  readonly table = new Table<Role>();

  page = async (query: PageQuery) => pageOf(this.table.all(), query);
  findByIds = async (ids: number[]) => this.table.all().filter((role) => ids.includes(role.id));
  findById = async (id: number) => this.table.find((role) => role.id === id);
  findExisting = async (id: number) => {
    const role = this.table.find((stored) => stored.id === id);
    if (!role) throw new Error(`No role ${id}`);
    return role;
  };
  findByName = async (name: string) => this.table.find((role) => role.name === name);
  existsByName = async (name: string) => this.table.find((role) => role.name === name) !== null;
  superRoleIds = async () => this.table.rows.filter((role) => role.permissions.includes('*')).map((role) => role.id);
  create = async (role: Pick<Role, 'name' | 'permissions'>) =>
    this.table.insert(Object.assign(new Role(), { builtIn: false, createdAt: now(), updatedAt: now() }, role));
  update = async (id: number, edits: RoleEdits) => this.table.update(id, edits);
  /** One caller at a time already: the fakes answer at once. */
  lockAssignments = async () => undefined;
  delete = async (id: number) => this.table.delete(id);
}

export class FakeUsersRepository implements Public<UsersRepository> {
  readonly table = new Table<User>();

  page = async (query: PageQuery) => pageOf(this.table.all(), query);
  findById = async (id: number) => this.table.find((user) => user.id === id);
  findForUpdate = async (id: number) => this.findById(id);
  findByUsername = async (username: string) => this.table.find((user) => user.username === username);
  existsByUsername = async (username: string) => this.table.find((user) => user.username === username) !== null;
  count = async () => this.table.rows.length;
  countWithRoles = async (roleIds: number[], exceptUserId?: number) =>
    this.table.rows.filter((user) => roleIds.includes(user.roleId) && user.id !== exceptUserId).length;
  create = async (user: Pick<User, 'username' | 'passwordHash' | 'roleId'>) =>
    this.table.insert(Object.assign(new User(), { tokenVersion: 0, createdAt: now(), updatedAt: now() }, user));
  /** Not in the repository: for a spec to set up a user as it needs it. */
  save = async (user: User) => this.table.save(user);
  applyEdits = async (id: number, edits: UserEdits) => this.table.update(id, edits);
  delete = async (id: number) => this.table.delete(id);
  raiseTokenVersionOfRole = async (roleId: number) => {
    for (const user of this.table.rows) if (user.roleId === roleId) user.tokenVersion += 1;
  };
}

export class FakeIntegrationsRepository implements Public<IntegrationsRepository> {
  readonly table = new Table<Integration>();

  page = async (query: PageQuery) => pageOf(this.table.all(), query);
  findById = async (id: number) => this.table.find((integration) => integration.id === id);
  findForUpdate = async (id: number) => this.findById(id);
  findByAccessKey = async (accessKeyId: string) => this.table.find((row) => row.accessKeyId === accessKeyId);
  countWithRole = async (roleId: number) => this.table.rows.filter((row) => row.roleId === roleId).length;
  create = async (
    integration: Pick<Integration, 'label' | 'roleId' | 'accessKeyId' | 'secretHash'> &
      Partial<Pick<Integration, 'expiresAt' | 'owner'>>,
  ) =>
    this.table.insert(
      Object.assign(
        new Integration(),
        {
          previousSecretHash: null,
          previousSecretExpiresAt: null,
          active: true,
          tokenVersion: 0,
          lastUsedAt: null,
          expiresAt: null,
          owner: null,
        },
        { createdAt: now(), updatedAt: now() },
        integration,
      ),
    );
  applyEdits = async (id: number, edits: IntegrationEdits) => this.table.update(id, edits);
  delete = async (id: number) => this.table.delete(id);
  markUsed = async (id: number, at: number) => {
    for (const row of this.table.rows) if (row.id === id) row.lastUsedAt = at;
  };
  raiseTokenVersionOfRole = async (roleId: number) => {
    for (const row of this.table.rows) if (row.roleId === roleId) row.tokenVersion += 1;
  };
}

export class FakeRefreshTokensRepository implements Public<RefreshTokensRepository> {
  readonly table = new Table<RefreshToken>();

  findByHash = async (tokenHash: string) => this.table.find((token) => token.tokenHash === tokenHash);
  insert = async (token: Omit<RefreshToken, 'id'>) => {
    this.table.insert(Object.assign(new RefreshToken(), token));
  };
  claim = async (id: number, at: number, reusableAfter: number | null) => {
    const spendable = (row: RefreshToken) =>
      row.usedAt === null || (reusableAfter !== null && row.usedAt > reusableAfter);
    const token = this.table.rows.find((row) => row.id === id && row.revokedAt === null && spendable(row));
    if (token) token.usedAt ??= at;
    return token !== undefined;
  };
  revokeFamily = async (familyId: string, at: number) => {
    for (const token of this.table.rows) if (token.familyId === familyId) token.revokedAt = at;
  };
  revokeAllOfUser = async (userId: number, at: number) => {
    for (const token of this.table.rows) if (token.userId === userId) token.revokedAt = at;
  };
  revokeAllOfClient = async (clientId: string, at: number) => {
    for (const token of this.table.rows) if (token.clientId === clientId) token.revokedAt ??= at;
  };
  revokeSignInsOfUserAtClient = async (userId: number, clientId: string, at: number) => {
    const revoked = new Set<string>();
    for (const token of this.table.rows) {
      if (token.userId !== userId || token.clientId !== clientId || token.revokedAt !== null) continue;
      token.revokedAt = at;
      revoked.add(token.familyId);
    }
    return [...revoked];
  };
  revokeOtherSignInsOfUser = async (userId: number, keptFamilyId: string, at: number) => {
    const revoked = new Set<string>();
    for (const token of this.table.rows) {
      if (token.userId !== userId || token.familyId === keptFamilyId || token.revokedAt !== null) continue;
      token.revokedAt = at;
      revoked.add(token.familyId);
    }
    return [...revoked];
  };
  familyRevoked = async (familyId: string) =>
    this.table.rows.some((token) => token.familyId === familyId && token.revokedAt !== null);
}

export class FakeSigningKeysRepository implements Public<SigningKeysRepository> {
  readonly rows: SigningKey[] = [];

  /** `createdAt` comes from this function, as the database sets it. */
  constructor(private readonly createdAt: () => Date = now) {}

  newestFirst = async (purpose: SigningKeyPurpose) =>
    this.rows
      .filter((row) => row.purpose === purpose)
      .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime())
      .map(copy);
  tryInsert = async (key: NewSigningKey) => {
    if (this.rows.some((row) => row.kid === key.kid)) return false;
    this.rows.push(
      Object.assign(new SigningKey(), { activatesAt: null, retiredAt: null, createdAt: this.createdAt() }, key),
    );
    return true;
  };
  tryInsertSuccessor = async (key: NewSigningKey, at: number) => {
    if (!(await this.tryInsert(key))) return false;
    for (const row of this.rows)
      if (row.kid !== key.kid && row.purpose === key.purpose && row.retiredAt === null) row.retiredAt = at;
    return true;
  };
  deleteRetiredBefore = async (purpose: SigningKeyPurpose, before: number) => {
    const kept = this.rows.filter(
      (row) => row.purpose !== purpose || row.retiredAt === null || row.retiredAt >= before,
    );
    this.rows.splice(0, this.rows.length, ...kept);
  };
}
