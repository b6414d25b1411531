import { AuthorizationClients } from '../clients/authorization-clients.js';
import type { TokenRequest } from '../credentials/token-request.js';
import { asReal, FakeClock } from '../testing/in-memory-repositories.js';
import { FakeOAuthClientsRepository } from '../testing/oauth-client-fakes.js';
import { loadTokenConfig } from '../token.config.js';
import { AuthorizationCodeGrant } from './authorization-code.grant.js';

/** Stands in for a collaborator the refusal must come before: any use of it fails the test. */
const untouched = <T>(name: string): T =>
  new Proxy(
    {},
    {
      get: () => {
        throw new Error(`${name} was used before the request was refused`);
      },
    },
  ) as T;

const ISSUER = 'https://files.example';
const VERIFIER = 'a-code-verifier-of-at-least-forty-three-characters';

describe('AuthorizationCodeGrant refusals made before the code is looked at', () => {
  const config = loadTokenConfig({ OAUTH_ISSUER: ISSUER });
  const grant = new AuthorizationCodeGrant(
    untouched('AuthorizationCodesService'),
    untouched('AccessTokensService'),
    untouched('AuditTrail'),
    new AuthorizationClients(config, asReal(new FakeOAuthClientsRepository()), new FakeClock()),
  );
  const origin = { sourceIp: '192.0.2.1' };
  const request = (params: Record<string, string | undefined>, client: TokenRequest['client']): TokenRequest => ({
    grantType: 'authorization_code',
    client,
    params: Object.fromEntries(Object.entries(params).filter(([, value]) => value !== undefined)) as Record<
      string,
      string
    >,
  });
  const administration = { clientId: 'administration', method: 'none' as const };
  const redemption = { code: 'a-code', redirect_uri: `${ISSUER}/admin/callback`, code_verifier: VERIFIER };

  it('answers invalid_request (400) without the code, the redirect URI or the verifier, or for a malformed verifier', async () => {
    for (const missing of [
      { code: undefined },
      { redirect_uri: undefined },
      { code_verifier: undefined },
      { code_verifier: 'short' },
    ]) {
      await expect(grant.handle(request({ ...redemption, ...missing }, administration), origin)).rejects.toMatchObject({
        error: 'invalid_request',
        status: 400,
      });
    }
  });

  it('authenticates the client first: invalid_client (401) to the administration client sending a secret', async () => {
    const withSecret = { clientId: 'administration', clientSecret: 'x', method: 'client_secret_post' as const };
    await expect(grant.handle(request(redemption, withSecret), origin)).rejects.toMatchObject({
      error: 'invalid_client',
      status: 401,
    });
  });
});
