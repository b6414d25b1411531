import { Injectable } from '@nestjs/common';
import { InjectEntityManager } from '@nestjs/typeorm';
import { In, type EntityManager } from 'typeorm';
import { findPage, type Page, type PageQuery } from '@file-fields/nest';
import type { Transaction } from '@file-fields/nest';
import { ROLE_LIST } from './list-specs.js';
import { Role } from './entities/role.entity.js';

/** What a role's update may change. */
export type RoleEdits = Partial<Pick<Role, 'name' | 'permissions'>>;

/** Roles; methods given a manager run in its transaction. */
@Injectable()
export class RolesRepository {
  constructor(@InjectEntityManager() private readonly db: EntityManager) {}

  page(query: PageQuery): Promise<Page<Role>> {
    return findPage(this.db.getRepository(Role), query, ROLE_LIST);
  }

  findByIds(ids: number[], manager: EntityManager = this.db): Promise<Role[]> {
    return manager.findBy(Role, { id: In(ids) });
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

  /** Writes only the given columns, and reads the row back. */
  async update(id: number, edits: RoleEdits, manager: EntityManager = this.db): Promise<Role> {
    if (Object.keys(edits).length > 0) await manager.update(Role, { id }, edits);
    return manager.findOneByOrFail(Role, { id });
  }

  /**
   * Waits until no other transaction changes who holds which role, or what a role grants, and keeps the others waiting
   * until this one ends: a transaction-scoped advisory lock of this schema on PostgreSQL; SQLite runs one transaction at
   * a time anyway. Rules over many rows (someone keeps `*`, a deleted role has no holder) then read what they decide on.
   */
  async lockAssignments(tx: Pick<Transaction, 'manager' | 'supportsRowLocks'>): Promise<void> {
    if (!tx.supportsRowLocks) return;
    await tx.manager.query(`SELECT pg_advisory_xact_lock(hashtext(current_schema() || '.role-assignments'))`);
  }

  async delete(id: number, manager: EntityManager = this.db): Promise<void> {
    await manager.delete(Role, { id });
  }
}
