import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { AuditTrail, type AuditOrigin, type AuditRecord } from '../../audit/index.js';
import { InvalidTokenError, Clock, UnitOfWork } from '@file-fields/nest';
import type { Principal } from '../../common/auth/principal.js';
import { PasswordHasher } from '../crypto/password-hasher.js';
import type { User } from '../repositories/entities/user.entity.js';
import { TooManyAttemptsError } from '../credentials/oauth-error.js';
import { RefreshTokensRepository } from '../repositories/refresh-tokens.repository.js';
import { UsersRepository } from '../repositories/users.repository.js';
import { SubjectStatusService } from '../revocation/subject-status.service.js';
import { parseSubject, subjectOf } from '../credentials/subjects.js';
import { TokenAdminError, TokenAdminErrorCode } from '../token-admin.errors.js';
import { TokenFailureLimiter, type Attempt } from '../limits/token-failure-limiter.js';

export interface PasswordChange {
  currentPassword: string;
  newPassword: string;
}

/**
 * A user changes their own password, proving the current one. A wrong current password counts against the failure
 * limits of a wrong password at sign-in, so a stolen access token guesses the password no faster than the token
 * endpoint allows. The change ends the user's other sign-ins (their refresh tokens, and through the sign-in id they
 * carry, their access tokens) and keeps the one that made it.
 */
@Injectable()
export class PasswordChangeService {
  constructor(
    private readonly users: UsersRepository,
    private readonly refreshTokens: RefreshTokensRepository,
    private readonly hasher: PasswordHasher,
    private readonly limiter: TokenFailureLimiter,
    private readonly status: SubjectStatusService,
    private readonly unitOfWork: UnitOfWork,
    private readonly clock: Clock,
    private readonly trail: AuditTrail,
  ) {}

  async change(principal: Principal, change: PasswordChange, origin: AuditOrigin): Promise<void> {
    const user = await this.userOf(principal);
    const audit: AuditRecord = {
      ...origin,
      actor: principal.subject,
      clientId: principal.clientId,
      action: 'user.change-own-password',
      targetType: 'user',
      targetId: user.id,
    };
    await this.proveCurrent(user, change.currentPassword, audit);
    const passwordHash = await this.hasher.hash(change.newPassword);
    const revoked = await this.unitOfWork.run(async (tx) => {
      // Locked, and only the password written: a role given meanwhile is neither undone nor missed.
      const current = await this.users.findForUpdate(user.id, tx);
      // Changed meanwhile (by an administrator, or another change of one's own): what was proven no longer holds.
      if (current?.passwordHash !== user.passwordHash) throw wrongPassword();
      const revoked = await this.endOtherSignIns(current, principal.signInId, tx.manager);
      await this.users.applyEdits(current.id, { passwordHash, revoke: principal.signInId === undefined }, tx.manager);
      return revoked;
    });
    for (const familyId of revoked) this.status.invalidateSignIn(familyId);
    if (principal.signInId === undefined) this.status.invalidate(subjectOf('user', user.id));
    await this.trail.record(audit);
  }

  /** Integrations have a secret, not a password: 403. */
  private async userOf(principal: Principal): Promise<User> {
    const subject = parseSubject(principal.subject);
    if (subject?.kind !== 'user') {
      throw new TokenAdminError(
        TokenAdminErrorCode.NotAUser,
        'Only a user has a password to change; an integration rotates its secret instead.',
      );
    }
    const user = await this.users.findById(subject.id);
    if (!user) throw new InvalidTokenError('The access token was revoked.');
    return user;
  }

  private async proveCurrent(user: User, password: string, audit: AuditRecord): Promise<void> {
    const attempt = await this.begin(user, audit.sourceIp ?? 'unknown');
    let valid: boolean;
    try {
      valid = await this.hasher.verify(password, user.passwordHash);
    } catch (error) {
      // The hasher was busy: not the caller's guess.
      await attempt.refund();
      throw error;
    }
    if (valid) return attempt.succeeded();
    await this.trail.record({ ...audit, outcome: 'failure', details: { reason: 'wrong-password' } });
    throw wrongPassword();
  }

  /** The failure limits of the token endpoint, on the user's name; 429 with Retry-After when used up. */
  private async begin(user: User, ip: string): Promise<Attempt> {
    try {
      return await this.limiter.begin({ kind: 'user', name: user.username }, ip);
    } catch (error) {
      if (!(error instanceof TooManyAttemptsError)) throw error;
      const refused = new TokenAdminError(TokenAdminErrorCode.TooManyAttempts, error.description);
      Object.assign(refused.headers, error.headers);
      throw refused;
    }
  }

  /**
   * Revokes every sign-in of the user but `kept`, and answers the revoked ones. Every user token names its sign-in;
   * should one not, it cannot be told from the others, and all of the user's tokens end (the caller raises the user's
   * token version then).
   */
  private async endOtherSignIns(user: User, kept: string | undefined, manager: EntityManager): Promise<string[]> {
    const now = this.clock.nowMs();
    if (kept !== undefined) return this.refreshTokens.revokeOtherSignInsOfUser(user.id, kept, now, manager);
    await this.refreshTokens.revokeAllOfUser(user.id, now, manager);
    return [];
  }
}

function wrongPassword(): TokenAdminError {
  return new TokenAdminError(TokenAdminErrorCode.WrongPassword, 'The current password is wrong.');
}
