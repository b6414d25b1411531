import { Injectable } from '@nestjs/common';
import { InjectEntityManager } from '@nestjs/typeorm';
import { LessThan, type EntityManager } from 'typeorm';
import { AuthorizationCode } from './entities/authorization-code.entity.js';

export type NewAuthorizationCode = Omit<AuthorizationCode, 'id' | 'usedAt' | 'familyId'>;

/** Authorization codes (stored as hashes); methods given a manager run in its transaction. */
@Injectable()
export class AuthorizationCodesRepository {
  constructor(@InjectEntityManager() private readonly db: EntityManager) {}

  async insert(code: NewAuthorizationCode, manager: EntityManager = this.db): Promise<void> {
    await manager.insert(AuthorizationCode, { ...code, usedAt: null, familyId: null });
  }

  findByHash(codeHash: string, manager: EntityManager = this.db): Promise<AuthorizationCode | null> {
    return manager.findOneBy(AuthorizationCode, { codeHash });
  }

  /**
   * Spends the code; true for the one redemption that may go on. The condition is in the UPDATE itself: on PostgreSQL
   * a concurrent redemption waits for this row lock, then finds `used_at` set and loses.
   */
  async claim(id: number, now: number, manager: EntityManager = this.db): Promise<boolean> {
    const claimed = await manager
      .createQueryBuilder()
      .update(AuthorizationCode)
      .set({ usedAt: now })
      .where('id = :id AND used_at IS NULL', { id })
      .execute();
    return claimed.affected === 1;
  }

  async recordSignIn(id: number, familyId: string, manager: EntityManager = this.db): Promise<void> {
    await manager.update(AuthorizationCode, { id }, { familyId });
  }

  /** Forgets every code of a client (a client deleted): none of them can be redeemed any more. */
  async deleteForClient(clientId: string, manager: EntityManager = this.db): Promise<void> {
    await manager.delete(AuthorizationCode, { clientId });
  }

  /** Forgets the codes a user was issued at a client (their consent withdrawn): none can be redeemed any more. */
  async deleteForUserAtClient(userId: number, clientId: string, manager: EntityManager = this.db): Promise<void> {
    await manager.delete(AuthorizationCode, { userId, clientId });
  }

  /** Forgets codes that expired before `before`; a reuse after that is answered as an unknown code. */
  async deleteExpired(before: number, manager: EntityManager = this.db): Promise<void> {
    await manager.delete(AuthorizationCode, { expiresAt: LessThan(before) });
  }
}
