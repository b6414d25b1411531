import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import { Clock } from '../common/clock.js';
import { AppConfig } from '../config/environment.js';
import { UnitOfWork } from '../database/unit-of-work.js';
import { randomToken, sha256Hex } from './crypto/secrets.js';
import { RefreshToken } from './entities/refresh-token.entity.js';
import { OAuthError } from '../common/errors/oauth-error.js';

/** The outcome of presenting a refresh token. */
type Rotation = { ok: true; token: string; userId: number; scope: string } | { ok: false; reason: string };

/**
 * Opaque refresh tokens, stored as SHA-256, rotated on every use. Presenting one that was already exchanged
 * revokes its whole family (RFC 9700 §4.14.2); two concurrent exchanges of one token: exactly one wins,
 * by a compare-and-swap on `used_at`.
 */
@Injectable()
export class RefreshTokensService {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly config: AppConfig,
    private readonly clock: Clock,
  ) {}

  /** The first token of a new sign-in. */
  async start(manager: EntityManager, userId: number, scope: string): Promise<string> {
    const now = this.clock.nowMs();
    return this.insert(manager, {
      familyId: randomUUID(),
      userId,
      scope,
      absoluteExpiresAt: now + this.config.oauth.refreshAbsoluteTtl * 1000,
    });
  }

  /** Exchanges a token for its successor, or throws invalid_grant (after committing any family revocation). */
  async rotate(presented: string): Promise<{ token: string; userId: number; scope: string }> {
    const outcome = await this.unitOfWork.run((tx) => this.tryRotate(tx.manager, sha256Hex(presented)));
    if (!outcome.ok) throw new OAuthError('invalid_grant', outcome.reason);
    return outcome;
  }

  private async tryRotate(manager: EntityManager, tokenHash: string): Promise<Rotation> {
    const now = this.clock.nowMs();
    const found = await manager.findOneBy(RefreshToken, { tokenHash });
    if (!found) return { ok: false, reason: 'The refresh token is unknown.' };
    if (found.usedAt !== null) {
      await manager.update(RefreshToken, { familyId: found.familyId }, { revokedAt: now });
      return { ok: false, reason: 'The refresh token was already used; its sign-in is revoked.' };
    }
    if (found.revokedAt !== null) return { ok: false, reason: 'The refresh token was revoked.' };
    if (now >= found.idleExpiresAt || now >= found.absoluteExpiresAt)
      return { ok: false, reason: 'The refresh token expired.' };
    const claimed = await manager
      .createQueryBuilder()
      .update(RefreshToken)
      .set({ usedAt: now })
      .where('id = :id AND used_at IS NULL AND revoked_at IS NULL', { id: found.id })
      .execute();
    if (claimed.affected !== 1) return { ok: false, reason: 'The refresh token was already used.' };
    const token = await this.insert(manager, found);
    return { ok: true, token, userId: found.userId, scope: found.scope };
  }

  private async insert(
    manager: EntityManager,
    family: Pick<RefreshToken, 'familyId' | 'userId' | 'scope' | 'absoluteExpiresAt'>,
  ): Promise<string> {
    const token = randomToken(32);
    const now = this.clock.nowMs();
    await manager.insert(RefreshToken, {
      tokenHash: sha256Hex(token),
      familyId: family.familyId,
      userId: family.userId,
      scope: family.scope,
      createdAt: now,
      idleExpiresAt: Math.min(now + this.config.oauth.refreshIdleTtl * 1000, family.absoluteExpiresAt),
      absoluteExpiresAt: family.absoluteExpiresAt,
      usedAt: null,
      revokedAt: null,
    });
    return token;
  }
}
