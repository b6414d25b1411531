import { createHash } from 'node:crypto';
import type { UnitOfWork } from '@file-fields/nest';
import { Role } from '../repositories/entities/role.entity.js';
import type { SubjectStatusService } from '../revocation/subject-status.service.js';
import {
  asReal,
  FakeClock,
  FakeRefreshTokensRepository,
  FakeRolesRepository,
  FakeUnitOfWork,
  FakeUsersRepository,
} from '../testing/in-memory-repositories.js';
import { FakeAuthorizationCodesRepository } from '../testing/oauth-client-fakes.js';
import { AuthorizationCodesService } from './authorization-codes.service.js';
import type { RefreshTokensService } from './refresh-tokens.service.js';

const CLIENT = 'app_shop000000000000000000';
const REDIRECT = 'https://shop.example/cb';
const VERIFIER = 'a-code-verifier-of-at-least-forty-three-characters';
const challengeOf = (verifier: string) => createHash('sha256').update(verifier, 'ascii').digest('base64url');

/** The checks of a redemption (RFC 6749 §4.1.3, RFC 7636 §4.6): each one refused with invalid_grant, and why. */
describe('AuthorizationCodesService.redeem', () => {
  const setup = async () => {
    const clock = new FakeClock();
    const roles = new FakeRolesRepository();
    const role = roles.table.insert(
      Object.assign(new Role(), {
        name: 'reader',
        permissions: ['product:read'],
        builtIn: false,
        createdAt: new Date(),
      }),
    );
    const users = new FakeUsersRepository();
    const user = await users.create({ username: 'ada', passwordHash: 'x', roleId: role.id });
    // The sign-in a code starts is the refresh tokens' business (refresh-tokens.service.spec.ts).
    const refreshTokens = { start: () => Promise.resolve({ token: 'refresh', familyId: 'family' }) };
    const codes = new AuthorizationCodesService(
      asReal<UnitOfWork>(new FakeUnitOfWork()),
      clock,
      asReal(new FakeAuthorizationCodesRepository()),
      asReal(users),
      asReal(roles),
      asReal<RefreshTokensService>(refreshTokens as never),
      asReal(new FakeRefreshTokensRepository()),
      asReal<SubjectStatusService>({ invalidateSignIn: () => undefined } as never),
    );
    const code = await codes.issue(
      { client: { clientId: CLIENT }, redirectUri: REDIRECT, codeChallenge: challengeOf(VERIFIER) },
      user.id,
      'product:read',
    );
    const redeem = (
      overrides: { code?: string; clientId?: string; redirectUri?: string; codeVerifier?: string } = {},
    ) =>
      codes.redeem({
        code,
        clientId: CLIENT,
        redirectUri: REDIRECT,
        codeVerifier: VERIFIER,
        ceiling: ['*'],
        ...overrides,
      });
    return { clock, redeem };
  };
  const invalidGrant = (description: string | RegExp) =>
    expect.objectContaining({ error: 'invalid_grant', status: 400, description }) as unknown;

  it('exchanges a code presented with its client, redirect URI and verifier (the control)', async () => {
    const { redeem } = await setup();
    await expect(redeem()).resolves.toMatchObject({ scope: 'product:read', signIn: { familyId: 'family' } });
  });

  it('refuses an unknown code', async () => {
    const { redeem } = await setup();
    await expect(redeem({ code: 'no-such-code' })).rejects.toEqual(invalidGrant('The authorization code is unknown.'));
  });

  it('refuses a code older than a minute', async () => {
    const { clock, redeem } = await setup();
    clock.advance(61_000);
    await expect(redeem()).rejects.toEqual(invalidGrant('The authorization code expired.'));
  });

  it('refuses a code presented with another redirect URI or by another client', async () => {
    const elsewhere = await setup();
    await expect(elsewhere.redeem({ redirectUri: 'https://shop.example/elsewhere' })).rejects.toEqual(
      invalidGrant('The redirect_uri is not the one of the authorization request.'),
    );
    const stolen = await setup();
    await expect(stolen.redeem({ clientId: 'app_other00000000000000000' })).rejects.toEqual(
      invalidGrant('The authorization code was issued to another client.'),
    );
  });

  // Claimed before it is checked: a stolen code cannot be tried twice.
  it('spends the code on a wrong verifier: the right one comes too late', async () => {
    const { redeem } = await setup();
    await expect(redeem({ codeVerifier: `${VERIFIER}-not` })).rejects.toEqual(
      invalidGrant('The code_verifier does not match the code_challenge.'),
    );
    await expect(redeem()).rejects.toEqual(invalidGrant('The authorization code was already used.'));
  });
});
