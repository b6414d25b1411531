import { Injectable } from '@nestjs/common';
import { InjectEntityManager } from '@nestjs/typeorm';
import { In, Not, type EntityManager } from 'typeorm';
import { findPage, type Page, type PageQuery } from '@file-fields/nest';
import type { Transaction } from '@file-fields/nest';
import { USER_LIST } from './list-specs.js';
import { User } from './entities/user.entity.js';

/** What an update of a user may change; `revoke` ends the user's live tokens: the token version rises. */
export type UserEdits = { revoke?: boolean } & Partial<Pick<User, 'roleId' | 'passwordHash'>>;

/** Users; methods given a manager run in its transaction. */
@Injectable()
export class UsersRepository {
  constructor(@InjectEntityManager() private readonly db: EntityManager) {}

  page(query: PageQuery): Promise<Page<User>> {
    return findPage(this.db.getRepository(User), query, USER_LIST);
  }

  findById(id: number, manager: EntityManager = this.db): Promise<User | null> {
    return manager.findOneBy(User, { id });
  }

  /** The user, its row locked until the transaction ends where rows can be locked (SQLite runs one at a time). */
  findForUpdate(id: number, tx: Pick<Transaction, 'manager' | 'supportsRowLocks'>): Promise<User | null> {
    // Not FOR UPDATE: rows that reference this one (a new refresh token) are still inserted meanwhile.
    const lock = tx.supportsRowLocks ? { lock: { mode: 'for_no_key_update' as const } } : {};
    return tx.manager.findOne(User, { where: { id }, ...lock });
  }

  findByUsername(username: string, manager: EntityManager = this.db): Promise<User | null> {
    return manager.findOneBy(User, { username });
  }

  existsByUsername(username: string, manager: EntityManager = this.db): Promise<boolean> {
    return manager.existsBy(User, { username });
  }

  count(manager: EntityManager = this.db): Promise<number> {
    return manager.count(User);
  }

  /** Users that have one of the roles, leaving out `exceptUserId`. */
  countWithRoles(roleIds: number[], exceptUserId?: number, manager: EntityManager = this.db): Promise<number> {
    if (roleIds.length === 0) return Promise.resolve(0);
    const others = exceptUserId === undefined ? {} : { id: Not(exceptUserId) };
    return manager.countBy(User, { roleId: In(roleIds), ...others });
  }

  create(user: Pick<User, 'username' | 'passwordHash' | 'roleId'>, manager: EntityManager = this.db): Promise<User> {
    return manager.save(manager.create(User, user));
  }

  /**
   * Writes only the given columns, and reads the row back. The token version rises in SQL, so that a concurrent raise
   * (a role narrowed) is added to, never written over.
   */
  async applyEdits(id: number, edits: UserEdits, manager: EntityManager = this.db): Promise<User> {
    const { revoke, ...columns } = edits;
    const raise = revoke ? { tokenVersion: () => 'token_version + 1' } : {};
    if (revoke || Object.keys(columns).length > 0) await manager.update(User, { id }, { ...columns, ...raise });
    return manager.findOneByOrFail(User, { id });
  }

  async delete(id: number, manager: EntityManager = this.db): Promise<void> {
    await manager.delete(User, { id });
  }

  /** Ends the live access tokens of every user with the role. */
  async raiseTokenVersionOfRole(roleId: number, manager: EntityManager = this.db): Promise<void> {
    await manager.increment(User, { roleId }, 'tokenVersion', 1);
  }
}
