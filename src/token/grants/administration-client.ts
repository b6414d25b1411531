import type { AuditOrigin, AuditRecord } from '../../audit/index.js';
import { OAuthError } from '../oauth-error.js';
import type { AccessTokensService } from '../issuing/access-tokens.service.js';
import type { User } from '../entities/user.entity.js';
import type { SignIn } from '../revocation/refresh-tokens.service.js';
import { subjectOf } from '../revocation/subject-status.service.js';
import type { ClientCredentials } from '../issuing/token-request.js';
import { ADMIN_CLIENT_ID, type TokenResponse } from './grant.js';

/** The password and refresh grants belong to the administration interface, a public client without a secret. */
export function assertAdministrationClient(client: ClientCredentials, grant: string): void {
  if (client.clientId !== ADMIN_CLIENT_ID) {
    if (client.method === 'none') throw OAuthError.invalidClient('Unknown client.', false);
    throw new OAuthError('unauthorized_client', `Only the administration interface may use the ${grant} grant.`);
  }
  authenticateAdministrationClient(client);
}

/** The administration client is public (RFC 6749 §2.1): one that presents a secret for it fails authentication. */
export function authenticateAdministrationClient(client: ClientCredentials): void {
  if (client.method !== 'none') {
    throw OAuthError.invalidClient('The administration client has no secret.', client.method === 'client_secret_basic');
  }
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
): Promise<TokenResponse> {
  return tokens.respond({
    subject: subjectOf('user', user.id),
    clientId: client.clientId,
    scope,
    version: user.tokenVersion,
    refreshToken: signIn.token,
    signInId: signIn.familyId,
  });
}

/**
 * The audit event of a sign-in that ended before its time: signed out through the revocation endpoint, or revoked
 * because a spent refresh token or authorization code came back. The actor is the sign-in's user (whoever held the token acted as them).
 */
export function signInRevoked(
  origin: AuditOrigin,
  signIn: SignIn,
  reason: 'revocation-request' | 'refresh-token-reuse' | 'authorization-code-reuse',
): AuditRecord {
  return {
    ...origin,
    actor: subjectOf('user', signIn.userId),
    clientId: ADMIN_CLIENT_ID,
    action: 'sign-in.revoked',
    targetType: 'user',
    targetId: signIn.userId,
    details: { reason, sign_in: signIn.familyId },
  };
}
