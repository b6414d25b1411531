import { Injectable } from '@nestjs/common';
import type { Page, PageQuery } from '@file-fields/nest';
import type { Principal } from '../../../common/auth/principal.js';
import { Clock, UnitOfWork, type Transaction } from '@file-fields/nest';
import { PasswordHasher } from '../../crypto/password-hasher.js';
import type { User } from '../../repositories/entities/user.entity.js';
import { RefreshTokensRepository } from '../../repositories/refresh-tokens.repository.js';
import { UsersRepository, type UserEdits } from '../../repositories/users.repository.js';
import { SubjectStatusService } from '../../revocation/subject-status.service.js';
import { subjectOf } from '../../credentials/subjects.js';
import { notFound, TokenAdminError, TokenAdminErrorCode } from '../../token-admin.errors.js';
import { assertHolds } from '../permissions/grant-policy.js';
import { RolesService } from '../roles/roles.service.js';

export interface UserInput {
  username?: string;
  password?: string;
  role?: string;
}

/** Users of the administration interface. A password change or deletion ends their tokens at once. */
@Injectable()
export class UsersService {
  constructor(
    private readonly users: UsersRepository,
    private readonly refreshTokens: RefreshTokensRepository,
    private readonly roles: RolesService,
    private readonly status: SubjectStatusService,
    private readonly unitOfWork: UnitOfWork,
    private readonly clock: Clock,
    private readonly hasher: PasswordHasher,
  ) {}

  page(query: PageQuery): Promise<Page<User>> {
    return this.users.page(query);
  }

  async get(id: number): Promise<User> {
    const user = await this.users.findById(id);
    if (!user) throw notFound('user', id);
    return user;
  }

  count(): Promise<number> {
    return this.users.count();
  }

  async create(input: Required<UserInput>, actor: Principal): Promise<User> {
    const passwordHash = await this.hasher.hash(input.password);
    return this.unitOfWork.run(async (tx) => {
      const { manager } = tx;
      // The role is not deleted meanwhile.
      await this.roles.lockAssignments(tx);
      const role = await this.roles.byName(input.role, manager);
      assertHolds(actor, role.permissions, `give a user the role "${role.name}"`);
      if (await this.users.existsByUsername(input.username, manager)) {
        throw new TokenAdminError(TokenAdminErrorCode.NameTaken, `A user "${input.username}" already exists.`);
      }
      return this.users.create({ username: input.username, passwordHash, roleId: role.id }, manager);
    });
  }

  /** A new role or password ends the user's live access tokens; a new password also ends every sign-in. */
  async update(id: number, input: UserInput, actor: Principal): Promise<User> {
    const passwordHash = input.password === undefined ? undefined : await this.hasher.hash(input.password);
    const user = await this.unitOfWork.run(async (tx) => {
      const { manager } = tx;
      if (input.role !== undefined) await this.roles.lockAssignments(tx);
      const user = await this.touchable(tx, id, actor, 'change');
      const edits: UserEdits = {};
      if (input.role !== undefined) {
        const role = await this.roles.byName(input.role, manager);
        assertHolds(actor, role.permissions, `give a user the role "${role.name}"`);
        if (role.id !== user.roleId) {
          await this.roles.assertAdministratorRemains(manager, { userId: id, nextRoleId: role.id });
          edits.roleId = role.id;
          edits.revoke = true;
        }
      }
      if (passwordHash !== undefined) {
        edits.passwordHash = passwordHash;
        edits.revoke = true;
        await this.refreshTokens.revokeAllOfUser(id, this.clock.nowMs(), manager);
      }
      return this.users.applyEdits(id, edits, manager);
    });
    this.status.invalidate(subjectOf('user', id));
    return user;
  }

  async remove(id: number, actor: Principal): Promise<void> {
    await this.unitOfWork.run(async (tx) => {
      await this.roles.lockAssignments(tx);
      await this.touchable(tx, id, actor, 'delete');
      await this.roles.assertAdministratorRemains(tx.manager, { userId: id });
      await this.users.delete(id, tx.manager);
    });
    this.status.invalidate(subjectOf('user', id));
  }

  /** The user, if `actor` holds every permission the user holds (else 403; 404 if there is none). */
  private async touchable(tx: Transaction, id: number, actor: Principal, action: string): Promise<User> {
    // Locked until the transaction ends, so that what is decided on it still holds when its change is written.
    const user = await this.users.findForUpdate(id, tx);
    if (!user) throw notFound('user', id);
    const role = await this.roles.byId(user.roleId, tx.manager);
    assertHolds(actor, role.permissions, `${action} the user "${user.username}"`);
    return user;
  }
}
