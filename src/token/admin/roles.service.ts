import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, Not, Repository, type EntityManager } from 'typeorm';
import type { Principal } from '../../common/auth/principal.js';
import { UnitOfWork } from '../../database/unit-of-work.js';
import { Integration } from '../entities/integration.entity.js';
import { Role } from '../entities/role.entity.js';
import { User } from '../entities/user.entity.js';
import { missingPermissions } from '../scopes.js';
import { SubjectStatusService } from '../subject-status.service.js';
import { TokenAdminError, TokenAdminErrorCode } from '../token-admin.errors.js';
import { assertHolds } from './grant-policy.js';

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
    @InjectRepository(Role) private readonly roles: Repository<Role>,
    private readonly unitOfWork: UnitOfWork,
    private readonly status: SubjectStatusService,
  ) {}

  list(): Promise<Role[]> {
    return this.roles.find({ order: { id: 'ASC' } });
  }

  /** Role names by id, for showing users and integrations. */
  async names(): Promise<Map<number, string>> {
    return new Map((await this.roles.find()).map((role) => [role.id, role.name]));
  }

  async get(id: number): Promise<Role> {
    return this.found(await this.roles.findOneBy({ id }), `Role ${id} does not exist.`);
  }

  async byId(id: number, manager: EntityManager = this.roles.manager): Promise<Role> {
    return this.found(await manager.findOneBy(Role, { id }), `Role ${id} does not exist.`);
  }

  async byName(name: string, manager: EntityManager = this.roles.manager): Promise<Role> {
    return this.found(await manager.findOneBy(Role, { name }), `No role is called "${name}".`);
  }

  create(input: Required<RoleInput>, actor: Principal): Promise<Role> {
    assertHolds(actor, input.permissions, `create the role "${input.name}"`);
    return this.unitOfWork.run(async ({ manager }) => {
      await this.assertNameFree(manager, input.name);
      return manager.save(manager.create(Role, { name: input.name, permissions: [...new Set(input.permissions)] }));
    });
  }

  async update(id: number, input: RoleInput, actor: Principal): Promise<Role> {
    const { role, narrowed } = await this.unitOfWork.run(async ({ manager }) => {
      const role = this.mutable(this.found(await manager.findOneBy(Role, { id }), `Role ${id} does not exist.`));
      assertHolds(actor, [...role.permissions, ...(input.permissions ?? [])], `change the role "${role.name}"`);
      if (input.name !== undefined && input.name !== role.name) await this.assertNameFree(manager, input.name);
      if (input.name !== undefined) role.name = input.name;
      const previous = role.permissions;
      if (input.permissions !== undefined) role.permissions = [...new Set(input.permissions)];
      const narrowed = missingPermissions(role.permissions, previous).length > 0;
      if (previous.includes('*') && !role.permissions.includes('*')) {
        await this.assertAdministratorRemains(manager, { roleId: role.id });
      }
      if (narrowed) await this.revokeHolders(manager, role);
      return { role: await manager.save(role), narrowed };
    });
    // Which subjects held the role is not worth a query per instance: a narrowing is rare, the cache refills.
    if (narrowed) this.status.invalidateAll();
    return role;
  }

  async remove(id: number, actor: Principal): Promise<void> {
    await this.unitOfWork.run(async ({ manager }) => {
      const role = this.mutable(this.found(await manager.findOneBy(Role, { id }), `Role ${id} does not exist.`));
      assertHolds(actor, role.permissions, `delete the role "${role.name}"`);
      const users = await manager.countBy(User, { roleId: id });
      const integrations = await manager.countBy(Integration, { roleId: id });
      if (users + integrations > 0) {
        throw new TokenAdminError(
          TokenAdminErrorCode.RoleInUse,
          `Role "${role.name}" is used by ${users} user(s) and ${integrations} integration(s).`,
        );
      }
      await manager.delete(Role, { id });
    });
  }

  /**
   * Refuses a change that would leave no user holding `*`: `userId` loses its role (deleted, or moved to
   * `nextRoleId`), or `roleId` loses `*`.
   */
  async assertAdministratorRemains(
    manager: EntityManager,
    change: { userId: number; nextRoleId?: number } | { roleId: number },
  ): Promise<void> {
    const superRoles = (await manager.find(Role)).filter((role) => role.permissions.includes('*')).map((r) => r.id);
    if ('roleId' in change) {
      const others = superRoles.filter((id) => id !== change.roleId);
      const holders = await manager.countBy(User, { roleId: change.roleId });
      if (holders === 0 || (others.length > 0 && (await manager.countBy(User, { roleId: In(others) })) > 0)) return;
    } else {
      const user = await manager.findOneBy(User, { id: change.userId });
      if (!user || !superRoles.includes(user.roleId)) return;
      if (change.nextRoleId !== undefined && superRoles.includes(change.nextRoleId)) return;
      if ((await manager.countBy(User, { roleId: In(superRoles), id: Not(change.userId) })) > 0) return;
    }
    throw new TokenAdminError(
      TokenAdminErrorCode.LastAdministrator,
      'At least one user must keep a role with the permission "*".',
    );
  }

  /** Ends the live access tokens of every user and integration that holds the role. */
  private async revokeHolders(manager: EntityManager, role: Role): Promise<void> {
    await manager.increment(User, { roleId: role.id }, 'tokenVersion', 1);
    await manager.increment(Integration, { roleId: role.id }, 'tokenVersion', 1);
  }

  private async assertNameFree(manager: EntityManager, name: string): Promise<void> {
    if (await manager.existsBy(Role, { name }))
      throw new TokenAdminError(TokenAdminErrorCode.NameTaken, `A role "${name}" already exists.`);
  }

  private mutable(role: Role): Role {
    if (role.builtIn)
      throw new TokenAdminError(TokenAdminErrorCode.BuiltInRole, `The built-in role "${role.name}" cannot change.`);
    return role;
  }

  private found(role: Role | null, detail: string): Role {
    if (!role) throw new TokenAdminError(TokenAdminErrorCode.RoleNotFound, detail);
    return role;
  }
}
