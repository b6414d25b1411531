import { Logger } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';
import { SignJWT } from 'jose';
import { InvalidTokenError } from '@file-fields/nest';
import { asReal, FakeClock, FakeSigningKeysRepository } from '../testing/in-memory-repositories.js';
import { loadTokenConfig } from '../token.config.js';
import { AccessTokensService } from './access-tokens.service.js';
import { SigningKeysService } from './signing-keys.service.js';

const ISSUER = 'https://files.example';

/** Only what the service issues is accepted: a token signed with its own key is still refused unless its claims are. */
describe('AccessTokensService.verify', () => {
  const config = loadTokenConfig({ OAUTH_ISSUER: ISSUER, ACCESS_TOKEN_TTL: '3600' });
  let clock: FakeClock;
  let keys: SigningKeysService;
  let tokens: AccessTokensService;

  beforeAll(() => Logger.overrideLogger(false));
  beforeEach(async () => {
    clock = new FakeClock();
    keys = new SigningKeysService(asReal(new FakeSigningKeysRepository(() => clock.now())), clock, config);
    await keys.onModuleInit();
    tokens = new AccessTokensService(new JwtService({}), keys, config, clock);
  });

  const now = () => Math.floor(clock.nowMs() / 1000);
  const base = () => ({
    iss: ISSUER,
    aud: ISSUER,
    sub: 'user:1',
    client_id: 'administration',
    scope: '*',
    jti: 'j',
    ver: 0,
    iat: now(),
    exp: now() + 600,
  });
  /** Signed with the service's own current key, as a leaked key or a bug would sign. */
  const sign = (claims: Record<string, unknown>) => {
    const key = keys.current();
    return new SignJWT(claims).setProtectedHeader({ alg: 'ES256', typ: 'at+jwt', kid: key.kid }).sign(key.privateKey);
  };
  const refusal = async (claims: Record<string, unknown>): Promise<unknown> =>
    tokens.verify(await sign(claims)).then(
      () => undefined,
      (error: unknown) => error,
    );
  /** The error the resource routes answer with: 401, problem type invalid-token. */
  const invalidToken = (detail: string): unknown =>
    expect.objectContaining({ status: 401, code: 'invalid-token', message: detail });

  it('accepts a well-formed token signed with its key (the control)', async () => {
    expect(await tokens.verify(await sign(base()))).toMatchObject({ sub: 'user:1', client_id: 'administration' });
  });

  it('refuses a correctly signed token without exp, with a future iat, or living longer than ACCESS_TOKEN_TTL', async () => {
    const { exp: _omitted, ...withoutExp } = base();
    expect(await refusal(withoutExp)).toEqual(invalidToken('The access token lacks required claims.'));
    for (const claims of [
      { ...base(), iat: now() + 3600, exp: now() + 4000 },
      { ...base(), iat: now(), exp: now() + 2 * 3600 },
    ]) {
      const error = await refusal(claims);
      expect(error).toBeInstanceOf(InvalidTokenError);
      expect(error).toEqual(invalidToken('The access token has an impossible lifetime.'));
    }
  });

  it('refuses malformed claims as an invalid token, not another error', async () => {
    for (const claims of [{ scope: ['*'] }, { scope: 7 }, { sub: 5 }, { ver: 'x' }, { sid: 1 }]) {
      const error = await refusal({ ...base(), ...claims });
      expect({ claims, error }).toEqual({ claims, error: invalidToken('The access token lacks required claims.') });
      expect(error).toBeInstanceOf(InvalidTokenError);
    }
  });
});
