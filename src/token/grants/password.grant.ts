import { Injectable } from '@nestjs/common';
import { AuditTrail, type AuditOrigin } from '../../audit/index.js';
import { UnitOfWork } from '../../database/unit-of-work.js';
import { AccessTokensService } from '../issuing/access-tokens.service.js';
import { PasswordHasher, PasswordHashingBusyError } from '../crypto/password-hasher.js';
import { DUMMY_PASSWORD_HASH } from '../crypto/secrets.js';
import { RolesRepository } from '../repositories/roles.repository.js';
import { UsersRepository } from '../repositories/users.repository.js';
import { OAuthError, TemporarilyUnavailableError } from '../oauth-error.js';
import { RefreshTokensService } from '../revocation/refresh-tokens.service.js';
import { grantedScope } from '../issuing/scopes.js';
import { subjectOf } from '../revocation/subject-status.service.js';
import type { TokenRequest } from '../issuing/token-request.js';
import { assertAdministrationClient, respondToSignIn } from './administration-client.js';
import { ADMIN_CLIENT_ID, type Grant, type TokenResponse } from './grant.js';

/** The actor of a failed sign-in: whoever tried is not known. */
const ANONYMOUS = 'anonymous';

/** password: the administration interface signs a user in and gets a refresh token (RFC 6749 §4.3). */
@Injectable()
export class PasswordGrant implements Grant {
  readonly type = 'password';

  constructor(
    private readonly users: UsersRepository,
    private readonly roles: RolesRepository,
    private readonly tokens: AccessTokensService,
    private readonly refreshTokens: RefreshTokensService,
    private readonly unitOfWork: UnitOfWork,
    private readonly hasher: PasswordHasher,
    private readonly trail: AuditTrail,
  ) {}

  /**
   * Records `sign-in.succeeded` (actor `user:<id>`) or, for a wrong username or password, `sign-in.failed` (actor
   * `anonymous`; the target the user a wrong password was given for). Never what was typed: a username that names no
   * one is often a password typed into the wrong field. Malformed requests and a busy hasher are not sign-in attempts.
   */
  async handle({ client, params }: TokenRequest, origin: AuditOrigin): Promise<TokenResponse> {
    assertAdministrationClient(client, this.type);
    if (!params.username || params.password === undefined) {
      throw new OAuthError('invalid_request', 'The parameters username and password are required.');
    }
    const user = await this.users.findByUsername(params.username);
    // Verify against a dummy hash for unknown users too, so response time does not reveal who exists.
    const valid = await this.verify(params.password, user?.passwordHash ?? DUMMY_PASSWORD_HASH);
    if (!user || !valid) {
      await this.trail.record({
        ...origin,
        actor: ANONYMOUS,
        clientId: ADMIN_CLIENT_ID,
        action: 'sign-in.failed',
        ...(user ? { targetType: 'user', targetId: user.id } : {}),
        outcome: 'failure',
        details: { reason: user ? 'wrong-password' : 'unknown-username' },
      });
      throw new OAuthError('invalid_grant', 'Wrong username or password.');
    }
    const role = await this.roles.findExisting(user.roleId);
    const scope = grantedScope(params.scope, role.permissions);
    const signIn = await this.unitOfWork.run(({ manager }) => this.refreshTokens.start(manager, user.id, scope));
    const response = await respondToSignIn(this.tokens, client, user, scope, signIn);
    await this.trail.record({
      ...origin,
      actor: subjectOf('user', user.id),
      clientId: ADMIN_CLIENT_ID,
      action: 'sign-in.succeeded',
      targetType: 'user',
      targetId: user.id,
    });
    return response;
  }

  private async verify(password: string, stored: string): Promise<boolean> {
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
