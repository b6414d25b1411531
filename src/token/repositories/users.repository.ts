import { Injectable } from '@nestjs/common';
import { InjectEntityManager } from '@nestjs/typeorm';
import { In, Not, type EntityManager } from 'typeorm';
import { User } from '../entities/user.entity.js';

/** Users; methods given a manager run in its transaction. */
@Injectable()
export class UsersRepository {
  constructor(@InjectEntityManager() private readonly db: EntityManager) {}

  list(manager: EntityManager = this.db): Promise<User[]> {
    return manager.find(User, { order: { id: 'ASC' } });
  }

  findById(id: number, manager: EntityManager = this.db): Promise<User | null> {
    return manager.findOneBy(User, { id });
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

  save(user: User, manager: EntityManager = this.db): Promise<User> {
    return manager.save(user);
  }

  async delete(id: number, manager: EntityManager = this.db): Promise<void> {
    await manager.delete(User, { id });
  }

  /** Ends the live access tokens of every user with the role. */
  async raiseTokenVersionOfRole(roleId: number, manager: EntityManager = this.db): Promise<void> {
    await manager.increment(User, { roleId }, 'tokenVersion', 1);
  }
}
