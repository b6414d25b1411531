import type { AuditOrigin, AuditRecord } from '../../audit/index.js';
import type { User } from '../repositories/entities/user.entity.js';
import type { AccessTokensService, TokenResponse } from '../issuing/access-tokens.service.js';
import type { SignIn } from '../issuing/refresh-tokens.service.js';
import { subjectOf } from '../credentials/subjects.js';

/**
 * The tokens a person gets on signing in at a client (the administration interface or a registered application) or on
 * refreshing there: an access token and the sign-in's refresh token, both bound to that client. The access token
 * carries the user's token version and the sign-in it belongs to, so raising the version or revoking the sign-in (or
 * deleting the client, which revokes its sign-ins) ends it too.
 */
export function respondToSignIn(
  tokens: AccessTokensService,
  clientId: string,
  user: Pick<User, 'id' | 'tokenVersion'>,
  scope: string,
  signIn: { token: string; familyId: string },
): Promise<TokenResponse> {
  return tokens.respond({
    subject: subjectOf('user', user.id),
    clientId,
    scope,
    version: user.tokenVersion,
    refreshToken: signIn.token,
    signInId: signIn.familyId,
  });
}

/**
 * The audit event of a sign-in that ended before its time: signed out through the revocation endpoint, or revoked
 * because a spent refresh token or authorization code came back. The actor is the sign-in's user (whoever held the
 * token acted as them), the client the one the sign-in was made at.
 */
export function signInRevoked(
  origin: AuditOrigin,
  signIn: SignIn,
  reason: 'revocation-request' | 'refresh-token-reuse' | 'authorization-code-reuse',
): AuditRecord {
  return {
    ...origin,
    actor: subjectOf('user', signIn.userId),
    clientId: signIn.clientId,
    action: 'sign-in.revoked',
    targetType: 'user',
    targetId: signIn.userId,
    details: { reason, sign_in: signIn.familyId },
  };
}
