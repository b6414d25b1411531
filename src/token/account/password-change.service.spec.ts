import { AuditTrail } from '../../audit/index.js';
import { FakeAuditEventsRepository } from '../../audit/testing/in-memory-audit-events.js';
import type { Principal } from '../../common/auth/principal.js';
import { noRedis } from '../../redis/testing.js';
import type { PasswordHasher } from '../crypto/password-hasher.js';
import { adminServices } from '../testing/admin-services.js';
import { asReal, FakeUnitOfWork } from '../testing/in-memory-repositories.js';
import { TokenAdminErrorCode } from '../token-admin.errors.js';
import { TokenFailureLimiter } from '../limits/token-failure-limiter.js';
import { loadTokenConfig } from '../token.config.js';
import { PasswordChangeService } from './password-change.service.js';

/** Stands in for scrypt, as in the administration services' specs. */
const hasher = {
  hash: (password: string) => Promise.resolve(`hashed:${password}`),
  verify: (password: string, stored: string) => Promise.resolve(stored === `hashed:${password}`),
};

const FAILURES_PER_MINUTE = 3;
const ORIGIN = { requestId: 'request-1', sourceIp: '192.0.2.1' };

describe('PasswordChangeService', () => {
  let s: Awaited<ReturnType<typeof adminServices>>;
  let events: FakeAuditEventsRepository;
  let service: PasswordChangeService;
  let userId: number;

  beforeEach(async () => {
    s = await adminServices();
    events = new FakeAuditEventsRepository();
    const config = loadTokenConfig({ TOKEN_FAILURES_PER_MINUTE: String(FAILURES_PER_MINUTE) });
    service = new PasswordChangeService(
      asReal(s.repos.users),
      asReal(s.repos.refreshTokens),
      asReal<PasswordHasher>(hasher),
      new TokenFailureLimiter(config, noRedis()),
      s.status,
      asReal(new FakeUnitOfWork()),
      s.clock,
      new AuditTrail(asReal(events), s.clock),
    );
    const user = await s.repos.users.create({ username: 'editor', passwordHash: 'hashed:old', roleId: 1 });
    userId = user.id;
    for (const familyId of ['current', 'other', 'another']) await signIn(familyId);
  });

  const signIn = (familyId: string) =>
    s.repos.refreshTokens.insert({
      ...{ tokenHash: `hash-${familyId}`, familyId, userId, clientId: 'administration', scope: '', createdAt: 0 },
      ...{ idleExpiresAt: Infinity, absoluteExpiresAt: Infinity, usedAt: null, revokedAt: null },
    });
  const as = (signInId?: string): Principal => ({
    subject: `user:${userId}`,
    clientId: 'administration',
    scopes: ['product:read'],
    ...(signInId ? { signInId } : {}),
  });
  const accepts = (sid: string, ver = 0) => s.status.accepts({ sub: `user:${userId}`, ver, sid });
  const stored = async () => (await s.repos.users.findById(userId))!;

  it("stores the new password's hash and ends every other sign-in of the user, not this one", async () => {
    // Cached as good before the change: the change must clear what it revokes.
    await expect(accepts('other')).resolves.toBe(true);
    await service.change(as('current'), { currentPassword: 'old', newPassword: 'new-password' }, ORIGIN);
    expect(await stored()).toMatchObject({ passwordHash: 'hashed:new-password', tokenVersion: 0 });
    await expect(accepts('current')).resolves.toBe(true);
    await expect(accepts('other')).resolves.toBe(false);
    await expect(accepts('another')).resolves.toBe(false);
    expect(events.rows).toEqual([
      expect.objectContaining({
        ...{ actor: `user:${userId}`, action: 'user.change-own-password', targetType: 'user' },
        ...{ targetId: String(userId), outcome: 'success', requestId: 'request-1', sourceIp: '192.0.2.1' },
      }),
    ]);
  });

  it('refuses a wrong current password, changes nothing and records the failure', async () => {
    const change = service.change(as('current'), { currentPassword: 'guess', newPassword: 'new-password' }, ORIGIN);
    await expect(change).rejects.toMatchObject({ code: TokenAdminErrorCode.WrongPassword, status: 400 });
    expect((await stored()).passwordHash).toBe('hashed:old');
    await expect(accepts('other')).resolves.toBe(true);
    expect(events.rows).toEqual([
      expect.objectContaining({ outcome: 'failure', details: '{"reason":"wrong-password"}' }),
    ]);
  });

  it('refuses past the failure limit with 429 and Retry-After, even the right password', async () => {
    const guess = { currentPassword: 'guess', newPassword: 'new-password' };
    for (let i = 0; i < FAILURES_PER_MINUTE; i++) {
      await expect(service.change(as('current'), guess, ORIGIN)).rejects.toMatchObject({ status: 400 });
    }
    const refused = service.change(as('current'), { ...guess, currentPassword: 'old' }, ORIGIN);
    await expect(refused).rejects.toMatchObject({
      code: TokenAdminErrorCode.TooManyAttempts,
      status: 429,
      headers: { 'Retry-After': expect.stringMatching(/^[1-9]\d*$/) },
    });
    expect((await stored()).passwordHash).toBe('hashed:old');
  });

  it('refuses an integration, which has no password', async () => {
    const integration: Principal = { subject: 'integration:1', clientId: 'FFIA1', scopes: ['*'] };
    const change = service.change(integration, { currentPassword: 'old', newPassword: 'new-password' }, ORIGIN);
    await expect(change).rejects.toMatchObject({ code: TokenAdminErrorCode.NotAUser, status: 403 });
  });

  it('ends every token of the user when the token that asks names no sign-in', async () => {
    await service.change(as(), { currentPassword: 'old', newPassword: 'new-password' }, ORIGIN);
    expect((await stored()).tokenVersion).toBe(1);
    for (const sid of ['current', 'other']) await expect(accepts(sid, 1)).resolves.toBe(false);
  });
});
