import { Logger } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';
import { AccessTokensService } from './access-tokens.service.js';
import { SigningKeysService } from './signing-keys.service.js';
import { asReal, FakeClock, FakeSigningKeysRepository } from '../testing/in-memory-repositories.js';
import { loadTokenConfig } from '../token.config.js';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

describe('SigningKeysService', () => {
  // Access tokens live 10 minutes; a new key is published 1 hour before it signs; the schedule rotates daily.
  const config = loadTokenConfig({ ACCESS_TOKEN_TTL: '600', SIGNING_KEY_ROTATION: '1d', SIGNING_KEY_PREPUBLISH: '1h' });
  let clock: FakeClock;
  let repository: FakeSigningKeysRepository;

  const startInstance = async () => {
    const service = new SigningKeysService(asReal(repository), clock, config);
    await service.onModuleInit();
    return service;
  };
  const published = (service: SigningKeysService) => service.jwks().keys.map((key) => key.kid);
  const tokensOf = (service: SigningKeysService) => new AccessTokensService(new JwtService({}), service, config, clock);
  const kidOf = (token: string) =>
    (JSON.parse(Buffer.from(token.split('.')[0] ?? '', 'base64url').toString()) as { kid: string }).kid;

  beforeAll(() => Logger.overrideLogger(false));
  beforeEach(() => {
    clock = new FakeClock();
    repository = new FakeSigningKeysRepository(() => clock.now());
  });

  it('generates one key at the first start, which every later instance shares', async () => {
    const first = await startInstance();
    const second = await startInstance();
    expect(repository.rows).toHaveLength(1);
    expect(second.current().kid).toBe(first.current().kid);
    expect(published(second)).toEqual([first.current().kid]);
  });

  it('publishes a rotated key at once and signs with it only once the prepublish time has passed', async () => {
    const service = await startInstance();
    const old = service.current().kid;
    const rotated = await service.rotate();
    expect(rotated).toEqual({ kid: expect.any(String), activatesAt: clock.nowMs() + HOUR });
    expect(published(service).sort()).toEqual([old, rotated?.kid].sort());
    expect(service.current().kid).toBe(old);
    const tokens = tokensOf(service);
    expect(kidOf(await tokens.issue('user:1', 'administration', 'a'))).toBe(old);

    clock.advance(HOUR - 1);
    expect(service.current().kid).toBe(old);
    clock.advance(1);
    expect(service.current().kid).toBe(rotated?.kid);
    expect(kidOf(await tokens.issue('user:1', 'administration', 'a'))).toBe(rotated?.kid);
  });

  it('keeps the old key published, and its tokens valid, until retired + ACCESS_TOKEN_TTL, then drops it', async () => {
    const service = await startInstance();
    const tokens = tokensOf(service);
    const old = service.current().kid;
    const rotated = await service.rotate();
    clock.advance(HOUR - SECOND);
    const oldToken = await tokens.issue('user:1', 'administration', 'a');
    expect(kidOf(oldToken)).toBe(old);
    clock.advance(SECOND);
    const newToken = await tokens.issue('user:1', 'administration', 'a');
    expect(kidOf(newToken)).toBe(rotated?.kid);

    // The old key's last token expires 10 minutes after the switch (less the second it was issued early).
    clock.advance(10 * MINUTE - 2 * SECOND);
    expect(await tokens.verify(oldToken)).toMatchObject({ sub: 'user:1' });
    expect(published(service)).toContain(old);
    expect(service.find(old)?.kid).toBe(old);

    clock.advance(2 * SECOND);
    expect(published(service)).toEqual([rotated?.kid]);
    expect(service.find(old)).toBeUndefined();
    await expect(tokens.verify(oldToken)).rejects.toThrow('The access token is malformed.');
    expect(service.find(kidOf(newToken))?.kid).toBe(rotated?.kid);
  });

  it('sees a rotation made by another instance when it reloads, and switches at the same activation', async () => {
    const one = await startInstance();
    const two = await startInstance();
    const rotated = await one.rotate();
    await two.rotateIfDue(); // not due: only reloads
    expect(published(two)).toContain(rotated?.kid);
    clock.advance(HOUR);
    expect(two.current().kid).toBe(rotated?.kid);
  });

  it('rotates on schedule once per period, even with several instances', async () => {
    const one = await startInstance();
    const two = await startInstance();
    const first = one.current().kid;

    clock.advance(DAY - HOUR - 1);
    await one.rotateIfDue();
    expect(repository.rows).toHaveLength(1);

    clock.advance(1);
    await Promise.all([one.rotateIfDue(), two.rotateIfDue()]);
    await two.rotateIfDue();
    expect(repository.rows).toHaveLength(2);
    expect(one.current().kid).toBe(first);

    clock.advance(HOUR);
    const second = one.current().kid;
    expect(second).not.toBe(first);
    expect(two.current().kid).toBe(second);
    await one.rotateIfDue();
    expect(repository.rows).toHaveLength(2);

    // The next rotation is due a day after the second key started signing.
    clock.advance(DAY - HOUR);
    await two.rotateIfDue();
    await one.rotateIfDue();
    expect(repository.rows).toHaveLength(3);
  });

  it('does nothing on schedule without SIGNING_KEY_ROTATION', async () => {
    const service = new SigningKeysService(asReal(repository), clock, loadTokenConfig({}));
    await service.onModuleInit();
    clock.advance(365 * DAY);
    await service.rotateIfDue();
    expect(repository.rows).toHaveLength(1);
  });
});
