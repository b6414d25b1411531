import type { EntityManager } from 'typeorm';
import { OAuthError } from './oauth-error.js';
import type { UnitOfWork } from '../database/unit-of-work.js';
import { User } from './entities/user.entity.js';
import { RefreshTokensService, type RotationCheck } from './refresh-tokens.service.js';
import { SubjectStatusService } from './subject-status.service.js';
import {
  asReal,
  FakeClock,
  FakeIntegrationsRepository,
  FakeRefreshTokensRepository,
  FakeUnitOfWork,
  FakeUsersRepository,
} from './testing/in-memory-repositories.js';
import { loadTokenConfig } from './token.config.js';
import { noRedis } from '../redis/testing.js';

const HOUR = 3_600_000;
const allow: RotationCheck<string> = (signIn) => Promise.resolve(`granted ${signIn.scope}`);

describe('RefreshTokensService', () => {
  let clock: FakeClock;
  let tokens: FakeRefreshTokensRepository;
  let status: SubjectStatusService;
  let service: RefreshTokensService;
  let userId: number;

  beforeEach(async () => {
    clock = new FakeClock();
    tokens = new FakeRefreshTokensRepository();
    const users = new FakeUsersRepository();
    userId = (await users.create(Object.assign(new User(), { username: 'ann', passwordHash: 'x', roleId: 1 }))).id;
    // Idle lifetime 1 h, absolute 3 h.
    const config = loadTokenConfig({ REFRESH_TOKEN_IDLE_TTL: '3600', REFRESH_TOKEN_ABSOLUTE_TTL: '10800' });
    status = new SubjectStatusService(
      asReal(new FakeIntegrationsRepository()),
      asReal(users),
      asReal(tokens),
      config,
      clock,
      noRedis(),
    );
    service = new RefreshTokensService(asReal<UnitOfWork>(new FakeUnitOfWork()), config, clock, status, asReal(tokens));
  });

  const signIn = () => service.start({} as EntityManager, userId, 'product:read');
  const refused = (promise: Promise<unknown>, description: RegExp) =>
    expect(promise).rejects.toMatchObject({ error: 'invalid_grant', description: expect.stringMatching(description) });

  it('exchanges a token for a new one of the same sign-in, passing on what the check granted', async () => {
    const { token, familyId } = await signIn();
    const rotated = await service.rotate(token, allow);
    expect(rotated).toMatchObject({ familyId, granted: 'granted product:read' });
    expect(rotated.token).not.toBe(token);
    await expect(service.rotate(rotated.token, allow)).resolves.toMatchObject({ familyId });
  });

  it('stores only hashes of the tokens', async () => {
    const { token } = await signIn();
    expect(tokens.table.rows.map((row) => row.tokenHash)).not.toContain(token);
    expect(tokens.table.rows[0].tokenHash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('revokes the whole sign-in when a spent token comes back, and its access tokens stop at once', async () => {
    const { token, familyId } = await signIn();
    const binding = { sub: `user:${userId}`, ver: 0, sid: familyId };
    await expect(status.accepts(binding)).resolves.toBe(true);
    const successor = await service.rotate(token, allow);

    await refused(service.rotate(token, allow), /already used; its sign-in is revoked/);
    await refused(service.rotate(successor.token, allow), /was revoked/);
    expect(tokens.table.rows.every((row) => row.revokedAt !== null)).toBe(true);
    // Accepted a moment ago and cached, yet refused now: the revocation cleared this instance's cache.
    await expect(status.accepts(binding)).resolves.toBe(false);
  });

  it('leaves the token unspent when the check refuses, so a retry is not taken for reuse', async () => {
    const { token } = await signIn();
    const refuse: RotationCheck<never> = () => Promise.reject(new OAuthError('invalid_scope', 'Not now.'));
    await expect(service.rotate(token, refuse)).rejects.toMatchObject({ error: 'invalid_scope' });
    expect(tokens.table.rows).toHaveLength(1);
    expect(tokens.table.rows[0]).toMatchObject({ usedAt: null, revokedAt: null });
    await expect(service.rotate(token, allow)).resolves.toMatchObject({ granted: 'granted product:read' });
  });

  it('lets exactly one of two concurrent exchanges of one token win', async () => {
    const { token } = await signIn();
    const results = await Promise.allSettled([service.rotate(token, allow), service.rotate(token, allow)]);
    expect(results.map((result) => result.status).sort()).toEqual(['fulfilled', 'rejected']);
  });

  it('refuses an unknown token', async () => {
    await refused(service.rotate('never-issued', allow), /unknown/);
  });

  it('refuses a token unused for longer than the idle lifetime', async () => {
    const { token } = await signIn();
    clock.advance(HOUR - 1);
    const { token: next } = await service.rotate(token, allow);
    clock.advance(HOUR);
    await refused(service.rotate(next, allow), /expired/);
  });

  it('ends a sign-in at its absolute lifetime however often it is refreshed', async () => {
    let { token } = await signIn();
    for (let i = 0; i < 3; i++) {
      clock.advance(HOUR - 60_000);
      ({ token } = await service.rotate(token, allow));
    }
    // 3 h minus 3 min have passed; the successor's idle expiry is capped at the sign-in's end.
    expect(Math.max(...tokens.table.rows.map((row) => row.idleExpiresAt))).toBe(clock.nowMs() + 180_000);
    clock.advance(180_000);
    await refused(service.rotate(token, allow), /expired/);
  });
});
