import type { EntityManager } from 'typeorm';
import { OAuthError } from '../credentials/oauth-error.js';
import type { UnitOfWork } from '@file-fields/nest';
import { User } from '../repositories/entities/user.entity.js';
import { RefreshTokenReusedError, RefreshTokensService, type RotationCheck } from './refresh-tokens.service.js';
import { sha256Hex } from '../crypto/secrets.js';
import { SubjectStatusService } from '../revocation/subject-status.service.js';
import {
  asReal,
  FakeClock,
  FakeIntegrationsRepository,
  FakeRefreshTokensRepository,
  FakeUnitOfWork,
  FakeUsersRepository,
} from '../testing/in-memory-repositories.js';
import { loadTokenConfig } from '../token.config.js';
import { noRedis } from '../../redis/testing.js';

const HOUR = 3_600_000;
const GRACE = 30_000;
const ADMIN = 'administration';
const APP = 'app_Xq3bV0m7hZ1kLw9pRt2sYa';
const allow: RotationCheck<string> = (signIn) => Promise.resolve(`granted ${signIn.scope}`);

describe('RefreshTokensService', () => {
  let clock: FakeClock;
  let tokens: FakeRefreshTokensRepository;
  let status: SubjectStatusService;
  let service: RefreshTokensService;
  let userId: number;

  /** The service over fresh fakes; idle lifetime 1 h, absolute 3 h, and the default reuse grace (30 s). */
  async function build(env: Record<string, string> = {}): Promise<void> {
    clock = new FakeClock();
    tokens = new FakeRefreshTokensRepository();
    const users = new FakeUsersRepository();
    userId = (await users.create(Object.assign(new User(), { username: 'ann', passwordHash: 'x', roleId: 1 }))).id;
    const config = loadTokenConfig({ REFRESH_TOKEN_IDLE_TTL: '3600', REFRESH_TOKEN_ABSOLUTE_TTL: '10800', ...env });
    status = new SubjectStatusService(
      asReal(new FakeIntegrationsRepository()),
      asReal(users),
      asReal(tokens),
      config,
      clock,
      noRedis(),
    );
    service = new RefreshTokensService(asReal<UnitOfWork>(new FakeUnitOfWork()), config, clock, status, asReal(tokens));
  }

  beforeEach(() => build());

  const signIn = (clientId = ADMIN) => service.start({} as EntityManager, { userId, clientId, scope: 'product:read' });
  const refused = (promise: Promise<unknown>, description: RegExp) =>
    expect(promise).rejects.toMatchObject({ error: 'invalid_grant', description: expect.stringMatching(description) });

  it('exchanges a token for a new one of the same sign-in, passing on what the check granted', async () => {
    const { token, familyId } = await signIn();
    const rotated = await service.rotate(token, ADMIN, allow);
    expect(rotated).toMatchObject({ familyId, granted: 'granted product:read' });
    expect(rotated.token).not.toBe(token);
    await expect(service.rotate(rotated.token, ADMIN, allow)).resolves.toMatchObject({ familyId });
  });

  it('stores only hashes of the tokens', async () => {
    const { token } = await signIn();
    expect(tokens.table.rows.map((row) => row.tokenHash)).not.toContain(token);
    expect(tokens.table.rows[0].tokenHash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('revokes the whole sign-in when a spent token comes back after the grace; its access tokens stop at once', async () => {
    const { token, familyId } = await signIn();
    const binding = { sub: `user:${userId}`, ver: 0, sid: familyId };
    await expect(status.accepts(binding)).resolves.toBe(true);
    const successor = await service.rotate(token, ADMIN, allow);
    clock.advance(GRACE);

    const reuse = service.rotate(token, ADMIN, allow);
    await expect(reuse).rejects.toBeInstanceOf(RefreshTokenReusedError);
    await expect(reuse).rejects.toMatchObject({ error: 'invalid_grant', signIn: { familyId, userId } });
    await refused(service.rotate(successor.token, ADMIN, allow), /was revoked/);
    expect(tokens.table.rows.every((row) => row.revokedAt !== null)).toBe(true);
    // Accepted a moment ago and cached, yet refused now: the revocation cleared this instance's cache.
    await expect(status.accepts(binding)).resolves.toBe(false);
  });

  describe('reuse grace (REFRESH_REUSE_GRACE)', () => {
    it('exchanges a just-rotated token again for a fresh token of the sign-in; every successor stays valid', async () => {
      const { token, familyId } = await signIn();
      const first = await service.rotate(token, ADMIN, allow);
      clock.advance(GRACE - 1);
      const again = await service.rotate(token, ADMIN, allow);
      expect(again).toMatchObject({ familyId, granted: 'granted product:read' });
      expect(new Set([token, first.token, again.token]).size).toBe(3);
      await expect(service.rotate(first.token, ADMIN, allow)).resolves.toMatchObject({ familyId });
      await expect(service.rotate(again.token, ADMIN, allow)).resolves.toMatchObject({ familyId });
    });

    it('counts the window from the first exchange: presenting the token again never extends it', async () => {
      const { token } = await signIn();
      const first = await service.rotate(token, ADMIN, allow);
      clock.advance(GRACE / 2);
      await service.rotate(token, ADMIN, allow);
      clock.advance(GRACE / 2 - 1);
      await service.rotate(token, ADMIN, allow);
      clock.advance(1);
      await expect(service.rotate(token, ADMIN, allow)).rejects.toBeInstanceOf(RefreshTokenReusedError);
      await refused(service.rotate(first.token, ADMIN, allow), /was revoked/);
    });

    it('gives both of two concurrent exchanges of one token new tokens of the same sign-in', async () => {
      const { token, familyId } = await signIn();
      const [a, b] = await Promise.all([service.rotate(token, ADMIN, allow), service.rotate(token, ADMIN, allow)]);
      expect([a.familyId, b.familyId]).toEqual([familyId, familyId]);
      expect(a.token).not.toBe(b.token);
    });

    it('never revives a revoked sign-in, not even a token added while it was being revoked', async () => {
      const { token, familyId } = await signIn();
      const { token: next } = await service.rotate(token, ADMIN, allow);
      await expect(service.revoke(next, ADMIN)).resolves.toMatchObject({ familyId });
      await refused(service.rotate(token, ADMIN, allow), /was revoked/);
      // An exchange that committed during the revocation left a row the revoking UPDATE did not see.
      const late = tokens.table.rows[0];
      await tokens.insert({ ...late, tokenHash: sha256Hex('late'), usedAt: null, revokedAt: null });
      await refused(service.rotate('late', ADMIN, allow), /was revoked/);
    });

    it('is off with REFRESH_REUSE_GRACE=0: a second exchange, even at once, revokes the sign-in', async () => {
      await build({ REFRESH_REUSE_GRACE: '0' });
      const { token } = await signIn();
      const { token: next } = await service.rotate(token, ADMIN, allow);
      await expect(service.rotate(token, ADMIN, allow)).rejects.toBeInstanceOf(RefreshTokenReusedError);
      await refused(service.rotate(next, ADMIN, allow), /was revoked/);
    });
  });

  describe('revoke (RFC 7009)', () => {
    it('ends the whole sign-in, whichever of its tokens is presented, and its access tokens at once', async () => {
      const { token, familyId } = await signIn();
      const binding = { sub: `user:${userId}`, ver: 0, sid: familyId };
      await expect(status.accepts(binding)).resolves.toBe(true);
      const { token: next } = await service.rotate(token, ADMIN, allow);
      await expect(service.revoke(token, ADMIN)).resolves.toEqual({
        familyId,
        userId,
        clientId: ADMIN,
        scope: 'product:read',
      });
      await refused(service.rotate(next, ADMIN, allow), /was revoked/);
      await expect(status.accepts(binding)).resolves.toBe(false);
    });

    it('leaves other sign-ins alone', async () => {
      const mine = await signIn();
      const other = await signIn();
      await service.revoke(mine.token, ADMIN);
      await expect(service.rotate(other.token, ADMIN, allow)).resolves.toMatchObject({ familyId: other.familyId });
    });

    it('ends nothing for an unknown token, a revoked sign-in, or one past its absolute lifetime', async () => {
      await expect(service.revoke('never-issued', ADMIN)).resolves.toBeUndefined();
      const revoked = await signIn();
      await service.revoke(revoked.token, ADMIN);
      await expect(service.revoke(revoked.token, ADMIN)).resolves.toBeUndefined();
      const ended = await signIn();
      clock.advance(3 * HOUR);
      await expect(service.revoke(ended.token, ADMIN)).resolves.toBeUndefined();
      expect(tokens.table.rows.filter((row) => row.familyId === ended.familyId && row.revokedAt !== null)).toEqual([]);
    });
  });

  describe('bound to its client', () => {
    it("refuses another client's exchange as invalid_grant, spending and revoking nothing", async () => {
      const { token, familyId } = await signIn(APP);
      await refused(service.rotate(token, ADMIN, allow), /issued to another client/);
      // Not even a spent token, which its own client's presentation would take for reuse.
      const { token: next } = await service.rotate(token, APP, allow);
      clock.advance(GRACE);
      await refused(service.rotate(token, ADMIN, allow), /issued to another client/);
      expect(tokens.table.rows.every((row) => row.revokedAt === null)).toBe(true);
      await expect(service.rotate(next, APP, allow)).resolves.toMatchObject({ familyId });
    });

    it('ends nothing when another client revokes the token, and the sign-in when its own does', async () => {
      const { token, familyId } = await signIn(APP);
      await expect(service.revoke(token, ADMIN)).resolves.toBeUndefined();
      expect(tokens.table.rows.every((row) => row.revokedAt === null)).toBe(true);
      await expect(service.revoke(token, APP)).resolves.toMatchObject({ familyId, clientId: APP });
      await refused(service.rotate(token, APP, allow), /was revoked/);
    });

    it("ends every sign-in of a deleted client and their access tokens at once, and no other client's", async () => {
      const [first, second, admin] = [await signIn(APP), await signIn(APP), await signIn(ADMIN)];
      const binding = (familyId: string, clientId: string) => ({
        sub: `user:${userId}`,
        ver: 0,
        sid: familyId,
        clientId,
      });
      const bindings = [binding(first.familyId, APP), binding(second.familyId, APP), binding(admin.familyId, ADMIN)];
      for (const b of bindings) await expect(status.accepts(b)).resolves.toBe(true);
      await tokens.revokeAllOfClient(APP, clock.nowMs());
      status.invalidateClient(APP);
      // Cached as accepted a moment ago: only the client's own sign-ins were forgotten.
      await expect(Promise.all(bindings.map((b) => status.accepts(b)))).resolves.toEqual([false, false, true]);
      await refused(service.rotate(first.token, APP, allow), /was revoked/);
      await expect(service.rotate(admin.token, ADMIN, allow)).resolves.toMatchObject({ familyId: admin.familyId });
    });
  });

  it('leaves the token unspent when the check refuses, so a retry is not taken for reuse', async () => {
    const { token } = await signIn();
    const refuse: RotationCheck<never> = () => Promise.reject(new OAuthError('invalid_scope', 'Not now.'));
    await expect(service.rotate(token, ADMIN, refuse)).rejects.toMatchObject({ error: 'invalid_scope' });
    expect(tokens.table.rows).toHaveLength(1);
    expect(tokens.table.rows[0]).toMatchObject({ usedAt: null, revokedAt: null });
    await expect(service.rotate(token, ADMIN, allow)).resolves.toMatchObject({ granted: 'granted product:read' });
  });

  it('lets exactly one of two concurrent exchanges of one token win when there is no reuse grace', async () => {
    await build({ REFRESH_REUSE_GRACE: '0' });
    const { token } = await signIn();
    const results = await Promise.allSettled([
      service.rotate(token, ADMIN, allow),
      service.rotate(token, ADMIN, allow),
    ]);
    expect(results.map((result) => result.status).sort()).toEqual(['fulfilled', 'rejected']);
  });

  it('refuses an unknown token', async () => {
    await refused(service.rotate('never-issued', ADMIN, allow), /unknown/);
  });

  it('refuses a token unused for longer than the idle lifetime', async () => {
    const { token } = await signIn();
    clock.advance(HOUR - 1);
    const { token: next } = await service.rotate(token, ADMIN, allow);
    clock.advance(HOUR);
    await refused(service.rotate(next, ADMIN, allow), /expired/);
  });

  it('ends a sign-in at its absolute lifetime however often it is refreshed', async () => {
    let { token } = await signIn();
    for (let i = 0; i < 3; i++) {
      clock.advance(HOUR - 60_000);
      ({ token } = await service.rotate(token, ADMIN, allow));
    }
    // 3 h minus 3 min have passed; the successor's idle expiry is capped at the sign-in's end.
    expect(Math.max(...tokens.table.rows.map((row) => row.idleExpiresAt))).toBe(clock.nowMs() + 180_000);
    clock.advance(180_000);
    await refused(service.rotate(token, ADMIN, allow), /expired/);
  });
});
