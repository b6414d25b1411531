import { Injectable } from '@nestjs/common';
import type { AuditOrigin } from '../../audit/index.js';
import { UnitOfWork } from '@file-fields/nest';
import { AccessTokensService, type TokenResponse } from '../issuing/access-tokens.service.js';
import { RolesRepository } from '../repositories/roles.repository.js';
import { OAuthError } from '../credentials/oauth-error.js';
import { RefreshTokensService } from '../issuing/refresh-tokens.service.js';
import { grantedScope } from '../credentials/scopes.js';
import type { TokenRequest } from '../credentials/token-request.js';
import { assertAdministrationClient, ADMIN_CLIENT_ID } from '../credentials/administration-client.js';
import { type Grant } from './grant.js';
import { respondToSignIn } from './sign-in-tokens.js';
import { UserCredentials } from './user-credentials.js';

/**
 * password: the administration interface signs a user in and gets a refresh token (RFC 6749 §4.3). Kept for
 * compatibility (OAUTH_PASSWORD_GRANT); the authorization code flow is the way OAuth 2.1 leaves.
 */
@Injectable()
export class PasswordGrant implements Grant {
  readonly type = 'password';

  constructor(
    private readonly credentials: UserCredentials,
    private readonly roles: RolesRepository,
    private readonly tokens: AccessTokensService,
    private readonly refreshTokens: RefreshTokensService,
    private readonly unitOfWork: UnitOfWork,
  ) {}

  /** Records `sign-in.succeeded` or `sign-in.failed` (see UserCredentials); malformed requests are not attempts. */
  async handle({ client, params }: TokenRequest, origin: AuditOrigin): Promise<TokenResponse> {
    assertAdministrationClient(client, this.type);
    if (!params.username || params.password === undefined) {
      throw new OAuthError('invalid_request', 'The parameters username and password are required.');
    }
    const user = await this.credentials.verify(params.username, params.password, origin);
    const role = await this.roles.findExisting(user.roleId);
    const scope = grantedScope(params.scope, role.permissions);
    const signIn = await this.unitOfWork.run(({ manager }) =>
      this.refreshTokens.start(manager, { userId: user.id, clientId: ADMIN_CLIENT_ID, scope }),
    );
    const response = await respondToSignIn(this.tokens, ADMIN_CLIENT_ID, user, scope, signIn);
    await this.credentials.signedIn(user, origin);
    return response;
  }
}
