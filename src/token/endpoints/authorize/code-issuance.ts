import { Inject, Injectable } from '@nestjs/common';
import { grantableScope, ScopeRefused } from '../../credentials/client-scopes.js';
import { AuthorizationCodesService } from '../../issuing/authorization-codes.service.js';
import type { User } from '../../repositories/entities/user.entity.js';
import { RolesRepository } from '../../repositories/roles.repository.js';
import { tokenConfig, type TokenConfig } from '../../token.config.js';
import type { AuthorizationAnswer } from './pages/page-answer.js';
import { AuthorizationRedirectError, redirectTo, type AuthorizationRequest } from './request/authorization-request.js';

/**
 * The end of a sign-in: what its code may carry, and the code sent back to the client. The code carries the client's
 * ceiling ∩ what was asked (its default scope if nothing) ∩ what the person holds.
 */
@Injectable()
export class CodeIssuance {
  constructor(
    private readonly roles: RolesRepository,
    private readonly codes: AuthorizationCodesService,
    @Inject(tokenConfig.KEY) private readonly config: TokenConfig,
  ) {}

  /** What a code may carry for `user` now; invalid_scope to the client when nothing may be granted. */
  async grantable(request: AuthorizationRequest, user: Pick<User, 'roleId'>): Promise<string[]> {
    const role = await this.roles.findExisting(user.roleId);
    try {
      return grantableScope(request.scope, request.client, role.permissions);
    } catch (error) {
      if (!(error instanceof ScopeRefused)) throw error;
      throw new AuthorizationRedirectError('invalid_scope', error.description, request.redirectUri, request.state);
    }
  }

  /** Issues the code and sends the browser back with it, its `state` and `iss` (RFC 9207). */
  async redirect(
    request: AuthorizationRequest,
    userId: number,
    scope: readonly string[],
  ): Promise<AuthorizationAnswer> {
    const code = await this.codes.issue(request, userId, scope.join(' '));
    return {
      kind: 'redirect',
      location: redirectTo(request.redirectUri, { code, state: request.state, iss: this.config.issuer }),
    };
  }
}
