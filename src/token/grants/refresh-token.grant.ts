import { Injectable } from '@nestjs/common';
import { AuditTrail, type AuditOrigin } from '../../audit/index.js';
import { AuthorizationClients, namesAuthorizationClient } from '../clients/authorization-clients.js';
import { AccessTokensService, type TokenResponse } from '../issuing/access-tokens.service.js';
import { OAuthError } from '../credentials/oauth-error.js';
import { RefreshTokenReusedError, RefreshTokensService } from '../issuing/refresh-tokens.service.js';
import { RolesRepository } from '../repositories/roles.repository.js';
import { UsersRepository } from '../repositories/users.repository.js';
import { grantedScope, intersectPermissions } from '../credentials/scopes.js';
import type { TokenRequest } from '../credentials/token-request.js';
import { type Grant } from './grant.js';
import { respondToSignIn, signInRevoked } from './sign-in-tokens.js';

/**
 * refresh_token: exchanges a refresh token for new tokens, rotating it (RFC 6749 §6). The client authenticates as for
 * the authorization code (a public one by its client_id, a confidential one with its secret), and the token must have
 * been issued to it: another client's token is invalid_grant, and stays as it was.
 */
@Injectable()
export class RefreshTokenGrant implements Grant {
  readonly type = 'refresh_token';

  constructor(
    private readonly clients: AuthorizationClients,
    private readonly tokens: AccessTokensService,
    private readonly refreshTokens: RefreshTokensService,
    private readonly users: UsersRepository,
    private readonly roles: RolesRepository,
    private readonly trail: AuditTrail,
  ) {}

  /** A refresh is not recorded in the audit trail; a reuse that revokes the sign-in is (`sign-in.revoked`). */
  async handle({ client, params }: TokenRequest, origin: AuditOrigin): Promise<TokenResponse> {
    if (!namesAuthorizationClient(client.clientId) && client.method !== 'none') {
      throw new OAuthError('unauthorized_client', 'Integrations may not use the refresh_token grant.');
    }
    const { scopes: clientCeiling } = await this.clients.authenticate(client);
    if (!params.refresh_token) throw new OAuthError('invalid_request', 'The parameter refresh_token is missing.');
    const rotated = await this.refreshTokens
      .rotate(params.refresh_token, client.clientId, async (signIn, manager) => {
        const user = await this.users.findById(signIn.userId, manager);
        if (!user) throw new OAuthError('invalid_grant', 'The user of this refresh token no longer exists.');
        const role = await this.roles.findExisting(user.roleId, manager);
        // The sign-in's scope, narrowed to what the user's role grants and the client may have today; a refresh may
        // narrow it further, never widen it (RFC 6749 §6).
        const held = intersectPermissions(signIn.scope.split(' ').filter(Boolean), role.permissions);
        const ceiling = intersectPermissions(held, clientCeiling);
        return { user, scope: grantedScope(params.scope, ceiling) };
      })
      .catch(async (error: unknown) => {
        if (error instanceof RefreshTokenReusedError) {
          await this.trail.record(signInRevoked(origin, error.signIn, 'refresh-token-reuse'));
        }
        throw error;
      });
    const { user, scope } = rotated.granted;
    return respondToSignIn(this.tokens, client.clientId, user, scope, rotated);
  }
}
