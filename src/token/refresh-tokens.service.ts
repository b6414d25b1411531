import { Inject, Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import { Clock } from '../common/clock.js';
import { tokenConfig, type TokenConfig } from './token.config.js';
import { UnitOfWork } from '../database/unit-of-work.js';
import { randomToken, sha256Hex } from './crypto/secrets.js';
import type { RefreshToken } from './entities/refresh-token.entity.js';
import { RefreshTokensRepository } from './repositories/refresh-tokens.repository.js';
import { OAuthError } from './oauth-error.js';
import { SubjectStatusService } from './subject-status.service.js';

/** The sign-in a presented refresh token belongs to. */
export type SignIn = Pick<RefreshToken, 'familyId' | 'userId' | 'scope'>;

/**
 * Decides what the sign-in may be granted now, before its refresh token is spent: throwing refuses the request and
 * leaves the token usable (a retry is then not mistaken for reuse).
 */
export type RotationCheck<T> = (signIn: SignIn, manager: EntityManager) => Promise<T>;

/** A refresh token exchanged for its successor. */
export interface Rotated<T> {
  token: string;
  familyId: string;
  granted: T;
}

/** The outcome of presenting a refresh token. */
type Rotation<T> = ({ ok: true } & Rotated<T>) | { ok: false; reason: string; revokedFamily?: string };

/**
 * Opaque refresh tokens, stored as SHA-256, rotated on every use. Presenting one that was already exchanged
 * revokes its whole family (RFC 9700 §4.14.2); two concurrent exchanges of one token: exactly one wins,
 * by a compare-and-swap on `used_at`.
 */
@Injectable()
export class RefreshTokensService {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    @Inject(tokenConfig.KEY) private readonly config: TokenConfig,
    private readonly clock: Clock,
    private readonly status: SubjectStatusService,
    private readonly refreshTokens: RefreshTokensRepository,
  ) {}

  /** The first token of a new sign-in, and the sign-in's id (its family). */
  async start(manager: EntityManager, userId: number, scope: string): Promise<{ token: string; familyId: string }> {
    const familyId = randomUUID();
    const absoluteExpiresAt = this.clock.nowMs() + this.config.refreshAbsoluteTtl * 1000;
    return { token: await this.insert(manager, { familyId, userId, scope, absoluteExpiresAt }), familyId };
  }

  /**
   * Exchanges a token for its successor once `check` allows it, or throws invalid_grant (after committing any family
   * revocation, which also ends the family's access tokens).
   */
  async rotate<T>(presented: string, check: RotationCheck<T>): Promise<Rotated<T>> {
    const outcome = await this.unitOfWork.run((tx) => this.tryRotate(tx.manager, sha256Hex(presented), check));
    if (outcome.ok) return outcome;
    if (outcome.revokedFamily) this.status.invalidateSignIn(outcome.revokedFamily);
    throw new OAuthError('invalid_grant', outcome.reason);
  }

  private async tryRotate<T>(manager: EntityManager, tokenHash: string, check: RotationCheck<T>): Promise<Rotation<T>> {
    const now = this.clock.nowMs();
    const found = await this.refreshTokens.findByHash(tokenHash, manager);
    if (!found) return { ok: false, reason: 'The refresh token is unknown.' };
    if (found.usedAt !== null) {
      await this.refreshTokens.revokeFamily(found.familyId, now, manager);
      const reason = 'The refresh token was already used; its sign-in is revoked.';
      return { ok: false, reason, revokedFamily: found.familyId };
    }
    if (found.revokedAt !== null) return { ok: false, reason: 'The refresh token was revoked.' };
    if (now >= found.idleExpiresAt || now >= found.absoluteExpiresAt)
      return { ok: false, reason: 'The refresh token expired.' };
    const granted = await check(found, manager);
    if (!(await this.refreshTokens.claim(found.id, now, manager))) {
      return { ok: false, reason: 'The refresh token was already used.' };
    }
    const token = await this.insert(manager, found);
    return { ok: true, token, familyId: found.familyId, granted };
  }

  private async insert(
    manager: EntityManager,
    family: Pick<RefreshToken, 'familyId' | 'userId' | 'scope' | 'absoluteExpiresAt'>,
  ): Promise<string> {
    const token = randomToken(32);
    const now = this.clock.nowMs();
    await this.refreshTokens.insert(
      {
        tokenHash: sha256Hex(token),
        familyId: family.familyId,
        userId: family.userId,
        scope: family.scope,
        createdAt: now,
        idleExpiresAt: Math.min(now + this.config.refreshIdleTtl * 1000, family.absoluteExpiresAt),
        absoluteExpiresAt: family.absoluteExpiresAt,
        usedAt: null,
        revokedAt: null,
      },
      manager,
    );
    return token;
  }
}
