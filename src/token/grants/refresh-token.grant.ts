import { Injectable } from '@nestjs/common';
import { AccessTokensService } from '../access-tokens.service.js';
import { OAuthError } from '../oauth-error.js';
import { RefreshTokensService } from '../refresh-tokens.service.js';
import { RolesRepository } from '../repositories/roles.repository.js';
import { UsersRepository } from '../repositories/users.repository.js';
import { grantedScope, intersectPermissions } from '../scopes.js';
import type { TokenRequest } from '../token-request.js';
import { assertAdministrationClient, respondToSignIn } from './administration-client.js';
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
  ) {}

  async handle({ client, params }: TokenRequest): Promise<TokenResponse> {
    assertAdministrationClient(client, this.type);
    if (!params.refresh_token) throw new OAuthError('invalid_request', 'The parameter refresh_token is missing.');
    const rotated = await this.refreshTokens.rotate(params.refresh_token, async (signIn, manager) => {
      const user = await this.users.findById(signIn.userId, manager);
      if (!user) throw new OAuthError('invalid_grant', 'The user of this refresh token no longer exists.');
      const role = await this.roles.findExisting(user.roleId, manager);
      // The sign-in's scope, narrowed to what the user's role grants today; a refresh may narrow it further, never
      // widen it (RFC 6749 §6).
      const ceiling = intersectPermissions(signIn.scope.split(' ').filter(Boolean), role.permissions);
      return { user, scope: grantedScope(params.scope, ceiling) };
    });
    const { user, scope } = rotated.granted;
    return respondToSignIn(this.tokens, client, user, scope, rotated);
  }
}
