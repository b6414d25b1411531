import { OAuthError } from '../oauth-error.js';
import type { AccessTokensService } from '../access-tokens.service.js';
import type { User } from '../entities/user.entity.js';
import { subjectOf } from '../subject-status.service.js';
import type { ClientCredentials } from '../token-request.js';
import { ADMIN_CLIENT_ID, type TokenResponse } from './grant.js';

/** The password and refresh grants belong to the administration interface, a public client without a secret. */
export function assertAdministrationClient(client: ClientCredentials, grant: string): void {
  const usedBasic = client.method === 'client_secret_basic';
  if (client.clientId !== ADMIN_CLIENT_ID) {
    if (client.method === 'none') throw OAuthError.invalidClient('Unknown client.', usedBasic);
    throw new OAuthError('unauthorized_client', `Only the administration interface may use the ${grant} grant.`);
  }
  if (client.method !== 'none') throw OAuthError.invalidClient('The administration client has no secret.', usedBasic);
}

/**
 * The tokens a user of the administration interface gets on signing in or refreshing. The access token carries the
 * user's token version and the sign-in it belongs to, so raising the version or revoking the sign-in ends it too.
 */
export function respondToSignIn(
  tokens: AccessTokensService,
  client: ClientCredentials,
  user: Pick<User, 'id' | 'tokenVersion'>,
  scope: string,
  signIn: { token: string; familyId: string },
): TokenResponse {
  return tokens.respond({
    subject: subjectOf('user', user.id),
    clientId: client.clientId,
    scope,
    version: user.tokenVersion,
    refreshToken: signIn.token,
    signInId: signIn.familyId,
  });
}
