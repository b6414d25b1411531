import { Injectable } from '@nestjs/common';
import { InjectEntityManager } from '@nestjs/typeorm';
import { IsNull, Not, type EntityManager } from 'typeorm';
import { RefreshToken } from '../entities/refresh-token.entity.js';

export type NewRefreshToken = Omit<RefreshToken, 'id'>;

/** Refresh tokens (stored as hashes) and their families; methods given a manager run in its transaction. */
@Injectable()
export class RefreshTokensRepository {
  constructor(@InjectEntityManager() private readonly db: EntityManager) {}

  findByHash(tokenHash: string, manager: EntityManager = this.db): Promise<RefreshToken | null> {
    return manager.findOneBy(RefreshToken, { tokenHash });
  }

  async insert(token: NewRefreshToken, manager: EntityManager = this.db): Promise<void> {
    await manager.insert(RefreshToken, token);
  }

  /**
   * Marks the token spent if nobody spent or revoked it meanwhile; true only for the one caller that did.
   * The condition in the UPDATE itself is what makes two concurrent exchanges of one token yield one winner.
   */
  async claim(id: number, now: number, manager: EntityManager = this.db): Promise<boolean> {
    const claimed = await manager
      .createQueryBuilder()
      .update(RefreshToken)
      .set({ usedAt: now })
      .where('id = :id AND used_at IS NULL AND revoked_at IS NULL', { id })
      .execute();
    return claimed.affected === 1;
  }

  async revokeFamily(familyId: string, now: number, manager: EntityManager = this.db): Promise<void> {
    await manager.update(RefreshToken, { familyId }, { revokedAt: now });
  }

  async revokeAllOfUser(userId: number, now: number, manager: EntityManager = this.db): Promise<void> {
    await manager.update(RefreshToken, { userId }, { revokedAt: now });
  }

  familyRevoked(familyId: string, manager: EntityManager = this.db): Promise<boolean> {
    return manager.existsBy(RefreshToken, { familyId, revokedAt: Not(IsNull()) });
  }
}
