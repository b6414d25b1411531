import { Injectable } from '@nestjs/common';
import { AuditTrail, type AuditOrigin } from '../../audit/index.js';
import { PasswordHasher, PasswordHashingBusyError } from '../crypto/password-hasher.js';
import { DUMMY_PASSWORD_HASH } from '../crypto/secrets.js';
import type { User } from '../repositories/entities/user.entity.js';
import { OAuthError, TemporarilyUnavailableError } from '../credentials/oauth-error.js';
import { UsersRepository } from '../repositories/users.repository.js';
import { subjectOf } from '../credentials/subjects.js';
import { ADMIN_CLIENT_ID } from '../credentials/administration-client.js';

/** The actor of a failed sign-in: whoever tried is not known. */
const ANONYMOUS = 'anonymous';

/**
 * A person's username and password, checked the same way by the password grant and the sign-in page of the
 * authorization endpoint, with the same audit trail.
 */
@Injectable()
export class UserCredentials {
  constructor(
    private readonly users: UsersRepository,
    private readonly hasher: PasswordHasher,
    private readonly trail: AuditTrail,
  ) {}

  /**
   * The user, or invalid_grant after recording `sign-in.failed` (actor `anonymous`; the target the user a wrong
   * password was given for). Never what was typed: a username that names no one is often a password typed into the
   * wrong field. A busy hasher is a 503, not a sign-in attempt. `clientId`: where the person is signing in.
   */
  async verify(username: string, password: string, origin: AuditOrigin, clientId = ADMIN_CLIENT_ID): Promise<User> {
    const user = await this.users.findByUsername(username);
    // Verify against a dummy hash for unknown users too, so response time does not reveal who exists.
    const valid = await this.check(password, user?.passwordHash ?? DUMMY_PASSWORD_HASH);
    if (user && valid) return user;
    await this.trail.record({
      ...origin,
      actor: ANONYMOUS,
      clientId,
      action: 'sign-in.failed',
      ...(user ? { targetType: 'user', targetId: user.id } : {}),
      outcome: 'failure',
      details: { reason: user ? 'wrong-password' : 'unknown-username' },
    });
    throw new OAuthError('invalid_grant', 'Wrong username or password.');
  }

  /** Records `sign-in.succeeded` (actor `user:<id>`) at `clientId`. */
  async signedIn(user: Pick<User, 'id'>, origin: AuditOrigin, clientId = ADMIN_CLIENT_ID): Promise<void> {
    await this.trail.record({
      ...origin,
      actor: subjectOf('user', user.id),
      clientId,
      action: 'sign-in.succeeded',
      targetType: 'user',
      targetId: user.id,
    });
  }

  private async check(password: string, stored: string): Promise<boolean> {
    try {
      return await this.hasher.verify(password, stored);
    } catch (error) {
      if (error instanceof PasswordHashingBusyError) {
        throw new TemporarilyUnavailableError(error.message, error.retryAfterSeconds);
      }
      throw error;
    }
  }
}
