import { Injectable } from '@nestjs/common';
import { AuditTrail, type AuditOrigin } from '../../../audit/index.js';
import { AuthorizationClients, namesAuthorizationClient } from '../../clients/authorization-clients.js';
import { IntegrationClients } from '../../clients/integration-clients.js';
import { signInRevoked } from '../../grants/sign-in-tokens.js';
import { RefreshTokensService } from '../../issuing/refresh-tokens.service.js';
import { clientAccount, TokenFailureLimiter } from '../../limits/token-failure-limiter.js';
import { parseRevocationRequest, type RevocationRequest } from '../../credentials/token-request.js';

/**
 * The revocation endpoint (RFC 7009). The client authenticates exactly as at the token endpoint: the administration
 * interface and public applications by their client_id, confidential applications and integrations with their
 * secret. A refresh token issued to that very client ends its whole sign-in: every refresh token of its family, and
 * the access tokens issued under it. Everything else is answered the same way with nothing changed, so the answer
 * tells nothing about the token (§2.2): an access token (short-lived, and not revocable one by one here), a token that
 * is unknown, expired or already revoked, and a token issued to another client (integrations have no refresh tokens:
 * an integration's request revokes nothing).
 */
@Injectable()
export class TokenRevocationService {
  constructor(
    private readonly limiter: TokenFailureLimiter,
    private readonly integrations: IntegrationClients,
    private readonly clients: AuthorizationClients,
    private readonly refreshTokens: RefreshTokensService,
    private readonly trail: AuditTrail,
  ) {}

  /** Counted by the token endpoint's failure limits (a failed client authentication is a failure like there). */
  revoke(body: unknown, authorization: string | undefined, origin: AuditOrigin): Promise<void> {
    return this.limiter.limited(
      origin.sourceIp ?? 'unknown',
      () => parseRevocationRequest(body, authorization),
      (request) => clientAccount(request.client),
      (request) => this.handle(request, origin),
    );
  }

  /** Records `sign-in.revoked` (actor `user:<id>`, the sign-in's user) when a sign-in ended. */
  private async handle({ client, token }: RevocationRequest, origin: AuditOrigin): Promise<void> {
    if (!namesAuthorizationClient(client.clientId)) {
      await this.integrations.authenticate(client);
      return;
    }
    await this.clients.authenticate(client);
    const signIn = await this.refreshTokens.revoke(token, client.clientId);
    if (signIn) await this.trail.record(signInRevoked(origin, signIn, 'revocation-request'));
  }
}
