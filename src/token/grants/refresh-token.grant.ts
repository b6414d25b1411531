import { Injectable } from '@nestjs/common';
import { AuditTrail, type AuditOrigin } from '../../audit/index.js';
import { AccessTokensService } from '../issuing/access-tokens.service.js';
import { OAuthError } from '../oauth-error.js';
import { RefreshTokenReusedError, RefreshTokensService } from '../revocation/refresh-tokens.service.js';
import { RolesRepository } from '../repositories/roles.repository.js';
import { UsersRepository } from '../repositories/users.repository.js';
import { grantedScope, intersectPermissions } from '../issuing/scopes.js';
import type { TokenRequest } from '../issuing/token-request.js';
import { assertAdministrationClient, respondToSignIn, signInRevoked } from './administration-client.js';
import { type Grant, type TokenResponse } from './grant.js';

/** refresh_token: exchanges a refresh token for new tokens, rotating it (RFC 6749 §6). */
@Injectable()
export class RefreshTokenGrant implements Grant {
  readonly type = 'refresh_token';

  constructor(
    private readonly tokens: AccessTokensService,
    private readonly refreshTokens: RefreshTokensService,
    private readonly users: UsersRepository,
    private readonly roles: RolesRepository,
    private readonly trail: AuditTrail,
  ) {}

  /** A refresh is not recorded in the audit trail; a reuse that revokes the sign-in is (`sign-in.revoked`). */
  async handle({ client, params }: TokenRequest, origin: AuditOrigin): Promise<TokenResponse> {
    assertAdministrationClient(client, this.type);
    if (!params.refresh_token) throw new OAuthError('invalid_request', 'The parameter refresh_token is missing.');
    const rotated = await this.refreshTokens
      .rotate(params.refresh_token, async (signIn, manager) => {
        const user = await this.users.findById(signIn.userId, manager);
        if (!user) throw new OAuthError('invalid_grant', 'The user of this refresh token no longer exists.');
        const role = await this.roles.findExisting(user.roleId, manager);
        // The sign-in's scope, narrowed to what the user's role grants today; a refresh may narrow it further, never
        // widen it (RFC 6749 §6).
        const ceiling = intersectPermissions(signIn.scope.split(' ').filter(Boolean), role.permissions);
        return { user, scope: grantedScope(params.scope, ceiling) };
      })
      .catch(async (error: unknown) => {
        if (error instanceof RefreshTokenReusedError) {
          await this.trail.record(signInRevoked(origin, error.signIn, 'refresh-token-reuse'));
        }
        throw error;
      });
    const { user, scope } = rotated.granted;
    return respondToSignIn(this.tokens, client, user, scope, rotated);
  }
}
