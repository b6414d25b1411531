import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { Page, PageQuery } from '@file-fields/nest';
import type { Principal } from '../../../common/auth/principal.js';
import { countOf, UnitOfWork, type Transaction } from '@file-fields/nest';
import type { Role } from '../../repositories/entities/role.entity.js';
import { IntegrationsRepository } from '../../repositories/integrations.repository.js';
import { RolesRepository, type RoleEdits } from '../../repositories/roles.repository.js';
import { UsersRepository } from '../../repositories/users.repository.js';
import { missingPermissions } from '../../credentials/scopes.js';
import { SubjectStatusService } from '../../revocation/subject-status.service.js';
import { notFound, TokenAdminError, TokenAdminErrorCode } from '../../token-admin.errors.js';
import { assertHolds } from '../permissions/grant-policy.js';

export interface RoleInput {
  name?: string;
  permissions?: string[];
}

/**
 * Roles: named permission sets. The built-in `admin` role (`*`) can be neither changed nor deleted; a principal
 * creates, changes or deletes only roles whose every permission it holds. Narrowing a role ends the live access
 * tokens of its holders (their token version rises), so the narrower scope applies from their next token on.
 */
@Injectable()
export class RolesService {
  constructor(
    private readonly roles: RolesRepository,
    private readonly users: UsersRepository,
    private readonly integrations: IntegrationsRepository,
    private readonly unitOfWork: UnitOfWork,
    private readonly status: SubjectStatusService,
  ) {}

  page(query: PageQuery): Promise<Page<Role>> {
    return this.roles.page(query);
  }

  /** The names of these roles by id, for showing users and integrations. */
  async names(ids: number[]): Promise<Map<number, string>> {
    const roles = ids.length === 0 ? [] : await this.roles.findByIds([...new Set(ids)]);
    return new Map(roles.map((role) => [role.id, role.name]));
  }

  get(id: number): Promise<Role> {
    return this.byId(id);
  }

  async byId(id: number, manager?: EntityManager): Promise<Role> {
    const role = await this.roles.findById(id, manager);
    if (!role) throw notFound('role', id);
    return role;
  }

  async byName(name: string, manager?: EntityManager): Promise<Role> {
    const role = await this.roles.findByName(name, manager);
    if (!role) throw new TokenAdminError(TokenAdminErrorCode.RoleNotFound, `No role is called "${name}".`);
    return role;
  }

  async create(input: Required<RoleInput>, actor: Principal): Promise<Role> {
    assertHolds(actor, input.permissions, `create the role "${input.name}"`);
    return this.unitOfWork.run(async ({ manager }) => {
      await this.assertNameFree(manager, input.name);
      return this.roles.create({ name: input.name, permissions: [...new Set(input.permissions)] }, manager);
    });
  }

  async update(id: number, input: RoleInput, actor: Principal): Promise<Role> {
    const role = await this.unitOfWork.run(async (tx) => {
      const { manager } = tx;
      await this.roles.lockAssignments(tx);
      const role = this.mutable(await this.byId(id, manager));
      assertHolds(actor, [...role.permissions, ...(input.permissions ?? [])], `change the role "${role.name}"`);
      const edits: RoleEdits = {};
      if (input.name !== undefined && input.name !== role.name) {
        await this.assertNameFree(manager, input.name);
        edits.name = input.name;
      }
      if (input.permissions !== undefined) edits.permissions = [...new Set(input.permissions)];
      const permissions = edits.permissions ?? role.permissions;
      if (role.permissions.includes('*') && !permissions.includes('*')) {
        await this.assertAdministratorRemains(manager, { roleId: role.id });
      }
      if (missingPermissions(permissions, role.permissions).length > 0) await this.revokeHolders(manager, role);
      return this.roles.update(role.id, edits, manager);
    });
    // Which subjects held the role is not worth a query per instance: a change of permissions is rare, the caches
    // refill. A widening too, so that cached clients get the new permissions in their next token at once.
    if (input.permissions !== undefined) this.status.invalidateAll();
    return role;
  }

  async remove(id: number, actor: Principal): Promise<void> {
    await this.unitOfWork.run(async (tx) => {
      const { manager } = tx;
      // No user or integration is given the role between the count and the deletion.
      await this.roles.lockAssignments(tx);
      const role = this.mutable(await this.byId(id, manager));
      assertHolds(actor, role.permissions, `delete the role "${role.name}"`);
      const users = await this.users.countWithRoles([id], undefined, manager);
      const integrations = await this.integrations.countWithRole(id, manager);
      if (users + integrations > 0) {
        throw new TokenAdminError(
          TokenAdminErrorCode.RoleInUse,
          `Role "${role.name}" is given to ${countOf(users, 'user')} and ${countOf(integrations, 'integration')}: ` +
            'give them another role first.',
        );
      }
      await this.roles.delete(id, manager);
    });
  }

  /**
   * Waits for the other transactions that change who holds which role, or what a role grants, and keeps them waiting
   * until this one ends. Taken first in the transaction, before any row lock: it is never waited for while holding one.
   */
  lockAssignments(tx: Transaction): Promise<void> {
    return this.roles.lockAssignments(tx);
  }

  /**
   * Refuses a change that would leave no user holding `*`: `userId` loses its role (deleted, or moved to
   * `nextRoleId`), or `roleId` loses `*`. The transaction holds {@link lockAssignments}: without it, two changes that
   * each leave one administrator could both pass and leave none.
   */
  async assertAdministratorRemains(
    manager: EntityManager,
    change: { userId: number; nextRoleId?: number } | { roleId: number },
  ): Promise<void> {
    const superRoles = await this.roles.superRoleIds(manager);
    if ('roleId' in change) {
      const others = superRoles.filter((id) => id !== change.roleId);
      const holders = await this.users.countWithRoles([change.roleId], undefined, manager);
      if (holders === 0 || (await this.users.countWithRoles(others, undefined, manager)) > 0) return;
    } else {
      const user = await this.users.findById(change.userId, manager);
      if (!user || !superRoles.includes(user.roleId)) return;
      if (change.nextRoleId !== undefined && superRoles.includes(change.nextRoleId)) return;
      if ((await this.users.countWithRoles(superRoles, change.userId, manager)) > 0) return;
    }
    throw new TokenAdminError(
      TokenAdminErrorCode.LastAdministrator,
      'At least one user must keep a role with the permission "*".',
    );
  }

  /** Ends the live access tokens of every user and integration that holds the role. */
  private async revokeHolders(manager: EntityManager, role: Role): Promise<void> {
    await this.users.raiseTokenVersionOfRole(role.id, manager);
    await this.integrations.raiseTokenVersionOfRole(role.id, manager);
  }

  private async assertNameFree(manager: EntityManager, name: string): Promise<void> {
    if (await this.roles.existsByName(name, manager))
      throw new TokenAdminError(TokenAdminErrorCode.NameTaken, `A role "${name}" already exists.`);
  }

  private mutable(role: Role): Role {
    if (role.builtIn)
      throw new TokenAdminError(TokenAdminErrorCode.BuiltInRole, `The built-in role "${role.name}" cannot change.`);
    return role;
  }
}
