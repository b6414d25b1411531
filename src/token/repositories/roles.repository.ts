import { Injectable } from '@nestjs/common';
import { InjectEntityManager } from '@nestjs/typeorm';
import type { EntityManager } from 'typeorm';
import { Role } from '../entities/role.entity.js';

/** Roles; methods given a manager run in its transaction. */
@Injectable()
export class RolesRepository {
  constructor(@InjectEntityManager() private readonly db: EntityManager) {}

  list(manager: EntityManager = this.db): Promise<Role[]> {
    return manager.find(Role, { order: { id: 'ASC' } });
  }

  findById(id: number, manager: EntityManager = this.db): Promise<Role | null> {
    return manager.findOneBy(Role, { id });
  }

  /** The role of an existing user or integration (a foreign key guarantees it; its absence is a bug, not a 404). */
  findExisting(id: number, manager: EntityManager = this.db): Promise<Role> {
    return manager.findOneByOrFail(Role, { id });
  }

  findByName(name: string, manager: EntityManager = this.db): Promise<Role | null> {
    return manager.findOneBy(Role, { name });
  }

  existsByName(name: string, manager: EntityManager = this.db): Promise<boolean> {
    return manager.existsBy(Role, { name });
  }

  /** The ids of the roles that hold `*`. */
  async superRoleIds(manager: EntityManager = this.db): Promise<number[]> {
    return (await manager.find(Role)).filter((role) => role.permissions.includes('*')).map((role) => role.id);
  }

  create(role: Pick<Role, 'name' | 'permissions'>, manager: EntityManager = this.db): Promise<Role> {
    return manager.save(manager.create(Role, role));
  }

  save(role: Role, manager: EntityManager = this.db): Promise<Role> {
    return manager.save(role);
  }

  async delete(id: number, manager: EntityManager = this.db): Promise<void> {
    await manager.delete(Role, { id });
  }
}
