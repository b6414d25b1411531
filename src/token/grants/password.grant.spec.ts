import type { TokenRequest } from '../credentials/token-request.js';
import { PasswordGrant } from './password.grant.js';

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

describe('PasswordGrant refusals made before any password is checked', () => {
  const grant = new PasswordGrant(
    untouched('UserCredentials'),
    untouched('RolesRepository'),
    untouched('AccessTokensService'),
    untouched('RefreshTokensService'),
    untouched('UnitOfWork'),
  );
  const origin = { sourceIp: '192.0.2.1' };
  const request = (client: TokenRequest['client'], params: Record<string, string>): TokenRequest => ({
    grantType: 'password',
    client,
    params: { grant_type: 'password', ...params },
  });

  it('answers an integration (a client with a secret) unauthorized_client (400)', async () => {
    const integration = {
      clientId: 'FFIAAAAAAAAAAAAAAAAAAAAAAA',
      clientSecret: 's',
      method: 'client_secret_post' as const,
    };
    await expect(
      grant.handle(request(integration, { username: 'admin', password: 'the password' }), origin),
    ).rejects.toMatchObject({ error: 'unauthorized_client', status: 400 });
  });

  it('answers invalid_request (400) without a password or without a username', async () => {
    const administration = { clientId: 'administration', method: 'none' as const };
    const incomplete: Array<Record<string, string>> = [
      { username: 'admin' },
      { password: 'the password' },
      { username: '', password: 'x' },
    ];
    for (const params of incomplete) {
      await expect(grant.handle(request(administration, params), origin)).rejects.toMatchObject({
        error: 'invalid_request',
        status: 400,
      });
    }
  });
});
