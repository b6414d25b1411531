import { Injectable } from '@nestjs/common';
import { AuditTrail, type AuditOrigin } from '../../audit/index.js';
import { AuthorizationCodeReusedError, AuthorizationCodesService } from '../issuing/authorization-codes.service.js';
import { AccessTokensService, type TokenResponse } from '../issuing/access-tokens.service.js';
import type { TokenRequest } from '../credentials/token-request.js';
import { OAuthError } from '../credentials/oauth-error.js';
import { AuthorizationClients } from '../clients/authorization-clients.js';
import type { Grant } from './grant.js';
import { respondToSignIn, signInRevoked } from './sign-in-tokens.js';

/** RFC 7636 §4.1: 43 to 128 unreserved characters. */
const CODE_VERIFIER = /^[A-Za-z0-9._~-]{43,128}$/;

/**
 * authorization_code with PKCE (RFC 6749 §4.1.3, RFC 7636 §4.5): the code the sign-in page sent to the client's
 * redirect URI, for an access token and the first refresh token of a new sign-in, both bound to the client that
 * redeemed it (the administration interface or a registered application). The sign-in itself was recorded when the
 * person signed in on the page; a reuse that revokes the sign-in is recorded here (`sign-in.revoked`).
 */
@Injectable()
export class AuthorizationCodeGrant implements Grant {
  readonly type = 'authorization_code';

  constructor(
    private readonly codes: AuthorizationCodesService,
    private readonly tokens: AccessTokensService,
    private readonly trail: AuditTrail,
    private readonly clients: AuthorizationClients,
  ) {}

  async handle({ client, params }: TokenRequest, origin: AuditOrigin): Promise<TokenResponse> {
    const { scopes: ceiling } = await this.clients.authenticate(client);
    const { code, redirect_uri: redirectUri, code_verifier: codeVerifier } = params;
    if (!code || !redirectUri || !codeVerifier) {
      throw new OAuthError('invalid_request', 'The parameters code, redirect_uri and code_verifier are required.');
    }
    if (!CODE_VERIFIER.test(codeVerifier)) {
      throw new OAuthError('invalid_request', 'The code_verifier must be 43 to 128 characters of A-Z a-z 0-9 - . _ ~.');
    }
    const redeemed = await this.codes
      .redeem({ code, clientId: client.clientId, redirectUri, codeVerifier, ceiling })
      .catch(async (error: unknown) => {
        if (error instanceof AuthorizationCodeReusedError) {
          await this.trail.record(signInRevoked(origin, error.signIn, 'authorization-code-reuse'));
        }
        throw error;
      });
    const { user, scope, signIn } = redeemed;
    return respondToSignIn(this.tokens, client.clientId, user, scope, signIn);
  }
}
