import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository, type EntityManager } from 'typeorm';
import { UnitOfWork } from '../../database/unit-of-work.js';
import { Integration } from '../entities/integration.entity.js';
import { Role } from '../entities/role.entity.js';
import { User } from '../entities/user.entity.js';
import { TokenAdminError, TokenAdminErrorCode } from '../token-admin.errors.js';

export interface RoleInput {
  name?: string;
  permissions?: string[];
}

/** Roles: named permission sets. The built-in `admin` role (`*`) can be neither changed nor deleted. */
@Injectable()
export class RolesService {
  constructor(
    @InjectRepository(Role) private readonly roles: Repository<Role>,
    private readonly unitOfWork: UnitOfWork,
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

  async byName(name: string, manager: EntityManager = this.roles.manager): Promise<Role> {
    return this.found(await manager.findOneBy(Role, { name }), `No role is called "${name}".`);
  }

  create(input: Required<RoleInput>): Promise<Role> {
    return this.unitOfWork.run(async ({ manager }) => {
      await this.assertNameFree(manager, input.name);
      return manager.save(manager.create(Role, { name: input.name, permissions: [...new Set(input.permissions)] }));
    });
  }

  update(id: number, input: RoleInput): Promise<Role> {
    return this.unitOfWork.run(async ({ manager }) => {
      const role = this.mutable(this.found(await manager.findOneBy(Role, { id }), `Role ${id} does not exist.`));
      if (input.name !== undefined && input.name !== role.name) await this.assertNameFree(manager, input.name);
      if (input.name !== undefined) role.name = input.name;
      if (input.permissions !== undefined) role.permissions = [...new Set(input.permissions)];
      return manager.save(role);
    });
  }

  async remove(id: number): Promise<void> {
    await this.unitOfWork.run(async ({ manager }) => {
      const role = this.mutable(this.found(await manager.findOneBy(Role, { id }), `Role ${id} does not exist.`));
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
