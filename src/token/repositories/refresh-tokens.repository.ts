import { Injectable } from '@nestjs/common';
import { InjectEntityManager } from '@nestjs/typeorm';
import { IsNull, Not, type EntityManager, type FindOptionsWhere } from 'typeorm';
import { RefreshToken } from './entities/refresh-token.entity.js';

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
   * Spends the token, unless it was revoked meanwhile or was already spent before `reusableAfter` (epoch ms; null:
   * spent at all); true when the caller may issue a successor. A first spend records its time, a spend within the reuse
   * grace leaves that time alone, so the grace never outlasts the first rotation by more than itself. The condition in
   * the UPDATE itself makes concurrent exchanges of one token safe: on PostgreSQL a second UPDATE waits for the first's
   * row lock, then decides on the row as the first left it (strict: one winner; with a grace: both, as its reuse).
   */
  async claim(
    id: number,
    now: number,
    reusableAfter: number | null,
    manager: EntityManager = this.db,
  ): Promise<boolean> {
    const spendable = reusableAfter === null ? 'used_at IS NULL' : '(used_at IS NULL OR used_at > :reusableAfter)';
    const claimed = await manager
      .createQueryBuilder()
      .update(RefreshToken)
      .set({ usedAt: () => 'COALESCE(used_at, :now)' })
      .where(`id = :id AND revoked_at IS NULL AND ${spendable}`, { id, now, reusableAfter })
      .execute();
    return claimed.affected === 1;
  }

  async revokeFamily(familyId: string, now: number, manager: EntityManager = this.db): Promise<void> {
    await manager.update(RefreshToken, { familyId }, { revokedAt: now });
  }

  async revokeAllOfUser(userId: number, now: number, manager: EntityManager = this.db): Promise<void> {
    await manager.update(RefreshToken, { userId }, { revokedAt: now });
  }

  /** Revokes every sign-in of a client; those already revoked keep the time they were. */
  async revokeAllOfClient(clientId: string, now: number, manager: EntityManager = this.db): Promise<void> {
    await manager.update(RefreshToken, { clientId, revokedAt: IsNull() }, { revokedAt: now });
  }

  /** Revokes every live sign-in the user made at a client; answers the families it revoked. */
  async revokeSignInsOfUserAtClient(
    userId: number,
    clientId: string,
    now: number,
    manager: EntityManager = this.db,
  ): Promise<string[]> {
    return this.revokeLive({ userId, clientId }, now, manager);
  }

  /** Revokes every sign-in of the user but `keptFamilyId`; answers the families it revoked. */
  async revokeOtherSignInsOfUser(
    userId: number,
    keptFamilyId: string,
    now: number,
    manager: EntityManager = this.db,
  ): Promise<string[]> {
    return this.revokeLive({ userId, familyId: Not(keptFamilyId) }, now, manager);
  }

  /** Revokes the live tokens matching `where`; answers the families they belong to. */
  private async revokeLive(
    where: FindOptionsWhere<RefreshToken>,
    now: number,
    manager: EntityManager,
  ): Promise<string[]> {
    const live = { ...where, revokedAt: IsNull() };
    const families = await manager
      .createQueryBuilder(RefreshToken, 'token')
      .select('DISTINCT token.familyId', 'familyId')
      .where(live)
      .getRawMany<{ familyId: string }>();
    await manager.update(RefreshToken, live, { revokedAt: now });
    return families.map((row) => row.familyId);
  }

  familyRevoked(familyId: string, manager: EntityManager = this.db): Promise<boolean> {
    return manager.existsBy(RefreshToken, { familyId, revokedAt: Not(IsNull()) });
  }
}
