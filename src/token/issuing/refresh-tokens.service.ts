import { Inject, Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import { Clock, UnitOfWork } from '@file-fields/nest';
import { tokenConfig, type TokenConfig } from '../token.config.js';
import { randomToken, sha256Hex } from '../crypto/secrets.js';
import type { RefreshToken } from '../repositories/entities/refresh-token.entity.js';
import { RefreshTokensRepository } from '../repositories/refresh-tokens.repository.js';
import { OAuthError } from '../credentials/oauth-error.js';
import { SubjectStatusService } from '../revocation/subject-status.service.js';

/** The sign-in a presented refresh token belongs to: its user, the client it was issued to, what it grants. */
export type SignIn = Pick<RefreshToken, 'familyId' | 'userId' | 'clientId' | 'scope'>;

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

const signInOf = ({ familyId, userId, clientId, scope }: RefreshToken): SignIn => ({
  familyId,
  userId,
  clientId,
  scope,
});

/** The outcome of presenting a refresh token; `reused`: a reuse after the grace, which just revoked this sign-in. */
type Rotation<T> = ({ ok: true } & Rotated<T>) | { ok: false; reason: string } | { ok: false; reused: SignIn };

/** A spent refresh token came back after the reuse grace: its whole sign-in was revoked (RFC 9700 §4.14.2). */
export class RefreshTokenReusedError extends OAuthError {
  constructor(readonly signIn: SignIn) {
    super('invalid_grant', 'The refresh token was already used; its sign-in is revoked.');
  }
}

/**
 * Opaque refresh tokens, stored as SHA-256, bound to the client they were issued to (RFC 6749 §6: only that client
 * may exchange or revoke one; to any other it is as good as unknown, and its presentation changes nothing), rotated
 * on every use. Presenting one that was already exchanged revokes
 * its whole family (RFC 9700 §4.14.2), except within REFRESH_REUSE_GRACE of its first exchange: several tabs of the
 * administration interface refresh with the same token, and each must get tokens. There the token is exchanged again
 * for a fresh token of the same family (the others stay valid); the window is counted from the first exchange only,
 * so re-presenting the token never extends it. Every exchange is a compare-and-swap on `used_at`: with no grace, two
 * concurrent exchanges of one token have exactly one winner; with one, both win. A revoked family stays revoked.
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

  /** The first token of a new sign-in of `userId` at `clientId`, and the sign-in's id (its family). */
  async start(manager: EntityManager, signIn: Omit<SignIn, 'familyId'>): Promise<{ token: string; familyId: string }> {
    const familyId = randomUUID();
    const absoluteExpiresAt = this.clock.nowMs() + this.config.refreshAbsoluteTtl * 1000;
    return { token: await this.insert(manager, { ...signIn, familyId, absoluteExpiresAt }), familyId };
  }

  /**
   * Exchanges a token for its successor once `check` allows it, or throws invalid_grant: a
   * {@link RefreshTokenReusedError} when the exchange was a reuse that revoked the family (committed, and the family's
   * access tokens ended with it).
   */
  async rotate<T>(presented: string, clientId: string, check: RotationCheck<T>): Promise<Rotated<T>> {
    const outcome = await this.unitOfWork.run((tx) =>
      this.tryRotate(tx.manager, { tokenHash: sha256Hex(presented), clientId }, check),
    );
    if (outcome.ok) return outcome;
    if ('reused' in outcome) {
      this.status.invalidateSignIn(outcome.reused.familyId);
      throw new RefreshTokenReusedError(outcome.reused);
    }
    throw new OAuthError('invalid_grant', outcome.reason);
  }

  /**
   * Ends the sign-in a refresh token belongs to (RFC 7009 §2.1): every refresh token of its family, and its access
   * tokens through their `sid`. Returns the sign-in, or undefined when there was none left to end (an unknown token,
   * another client's, or a sign-in already revoked or past its absolute lifetime).
   */
  async revoke(presented: string, clientId: string): Promise<SignIn | undefined> {
    const revoked = await this.unitOfWork.run(async ({ manager }) => {
      const now = this.clock.nowMs();
      const found = await this.refreshTokens.findByHash(sha256Hex(presented), manager);
      if (!found || found.clientId !== clientId || now >= found.absoluteExpiresAt) return undefined;
      if (await this.familyRevoked(found, manager)) return undefined;
      await this.refreshTokens.revokeFamily(found.familyId, now, manager);
      return signInOf(found);
    });
    if (revoked) this.status.invalidateSignIn(revoked.familyId);
    return revoked;
  }

  private async tryRotate<T>(
    manager: EntityManager,
    presented: Pick<RefreshToken, 'tokenHash' | 'clientId'>,
    check: RotationCheck<T>,
  ): Promise<Rotation<T>> {
    const now = this.clock.nowMs();
    const found = await this.refreshTokens.findByHash(presented.tokenHash, manager);
    if (!found) return { ok: false, reason: 'The refresh token is unknown.' };
    // Before any other check: another client learns nothing of the token's state, and spends or revokes nothing.
    if (found.clientId !== presented.clientId) {
      return { ok: false, reason: 'The refresh token was issued to another client.' };
    }
    if (await this.familyRevoked(found, manager)) return { ok: false, reason: 'The refresh token was revoked.' };
    const reusableAfter = this.reusableAfter(now);
    if (found.usedAt !== null && (reusableAfter === null || found.usedAt <= reusableAfter)) {
      await this.refreshTokens.revokeFamily(found.familyId, now, manager);
      return { ok: false, reused: signInOf(found) };
    }
    if (now >= found.idleExpiresAt || now >= found.absoluteExpiresAt)
      return { ok: false, reason: 'The refresh token expired.' };
    const granted = await check(found, manager);
    if (!(await this.refreshTokens.claim(found.id, now, reusableAfter, manager))) {
      return { ok: false, reason: 'The refresh token was already used.' };
    }
    const token = await this.insert(manager, found);
    return { ok: true, token, familyId: found.familyId, granted };
  }

  /** A token spent after this time may be exchanged again (REFRESH_REUSE_GRACE); null when there is no grace. */
  private reusableAfter(now: number): number | null {
    return this.config.refreshReuseGraceMs > 0 ? now - this.config.refreshReuseGraceMs : null;
  }

  /**
   * Whether the token's sign-in was revoked. Asked of the whole family, not only of the token's row: a token inserted
   * by an exchange that committed while the family was being revoked escaped that UPDATE, but not this check.
   */
  private async familyRevoked(token: RefreshToken, manager: EntityManager): Promise<boolean> {
    return token.revokedAt !== null || (await this.refreshTokens.familyRevoked(token.familyId, manager));
  }

  private async insert(
    manager: EntityManager,
    family: Pick<RefreshToken, 'familyId' | 'userId' | 'clientId' | 'scope' | 'absoluteExpiresAt'>,
  ): Promise<string> {
    const token = randomToken(32);
    const now = this.clock.nowMs();
    await this.refreshTokens.insert(
      {
        tokenHash: sha256Hex(token),
        familyId: family.familyId,
        userId: family.userId,
        clientId: family.clientId,
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
