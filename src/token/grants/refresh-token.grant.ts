import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { AccessTokensService } from '../access-tokens.service.js';
import { User } from '../entities/user.entity.js';
import { OAuthError } from '../../common/errors/oauth-error.js';
import { RefreshTokensService } from '../refresh-tokens.service.js';
import { grantedScope } from '../scopes.js';
import { subjectOf } from '../subject-status.service.js';
import type { TokenRequest } from '../token-request.js';
import { assertAdministrationClient } from './administration-client.js';
import { type Grant, type TokenResponse } from './grant.js';

/** refresh_token: exchanges a refresh token for new tokens, rotating it (RFC 6749 §6). */
@Injectable()
export class RefreshTokenGrant implements Grant {
  readonly type = 'refresh_token';

  constructor(
    @InjectRepository(User) private readonly users: Repository<User>,
    private readonly tokens: AccessTokensService,
    private readonly refreshTokens: RefreshTokensService,
  ) {}

  async handle({ client, params }: TokenRequest): Promise<TokenResponse> {
    assertAdministrationClient(client, this.type);
    if (!params.refresh_token) throw new OAuthError('invalid_request', 'The parameter refresh_token is missing.');
    const rotated = await this.refreshTokens.rotate(params.refresh_token);
    const user = await this.users.findOneBy({ id: rotated.userId });
    if (!user) throw new OAuthError('invalid_grant', 'The user of this refresh token no longer exists.');
    // A refresh may narrow the scope, never widen it (RFC 6749 §6).
    const scope = grantedScope(params.scope, rotated.scope.split(' '));
    const subject = subjectOf('user', user.id);
    return this.tokens.respond({
      subject,
      clientId: client.clientId,
      scope,
      version: user.tokenVersion,
      refreshToken: rotated.token,
    });
  }
}
