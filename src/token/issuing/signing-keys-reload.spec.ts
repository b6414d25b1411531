import { jest } from '@jest/globals';
import { Logger } from '@nestjs/common';
import { SigningKeysService, UNKNOWN_KID_RELOAD_MS } from './signing-keys.service.js';
import { asReal, FakeClock, FakeSigningKeysRepository } from '../testing/in-memory-repositories.js';
import { loadTokenConfig } from '../token.config.js';

describe('SIGNING_KEY_PREPUBLISH', () => {
  it('must be longer than the instances take to reload the keys (two minutes at least)', () => {
    for (const short of ['1s', '59s', '1m', '119s']) {
      expect(() => loadTokenConfig({ SIGNING_KEY_PREPUBLISH: short })).toThrow(/SIGNING_KEY_PREPUBLISH/);
    }
    expect(loadTokenConfig({ SIGNING_KEY_PREPUBLISH: '2m' }).signingKeyPrepublishMs).toBe(120_000);
    expect(loadTokenConfig({}).signingKeyPrepublishMs).toBe(3_600_000);
  });
});

describe('SigningKeysService.findFresh', () => {
  const config = loadTokenConfig({});
  let clock: FakeClock;
  let repository: FakeSigningKeysRepository;
  let one: SigningKeysService;
  let two: SigningKeysService;

  beforeAll(() => Logger.overrideLogger(false));
  beforeEach(async () => {
    clock = new FakeClock();
    repository = new FakeSigningKeysRepository(() => clock.now());
    one = new SigningKeysService(asReal(repository), clock, config);
    two = new SigningKeysService(asReal(repository), clock, config);
    await one.onModuleInit();
    await two.onModuleInit();
  });

  it('reloads for a kid it does not know, and so finds a key another instance added since its last reload', async () => {
    const rotated = await one.rotate();
    expect(two.find(rotated!.kid)).toBeUndefined();
    expect((await two.findFresh(rotated!.kid))?.kid).toBe(rotated!.kid);
  });

  it('reloads at most once per UNKNOWN_KID_RELOAD_MS, however many unknown kids come', async () => {
    const reads = jest.spyOn(repository, 'newestFirst');
    const unknown = await Promise.all(['x1', 'x2', 'x3'].map((kid) => two.findFresh(kid)));
    expect(unknown).toEqual([undefined, undefined, undefined]);
    expect(await two.findFresh('x4')).toBeUndefined();
    expect(reads).toHaveBeenCalledTimes(1);

    // Within the interval a key added meanwhile is not seen yet; after it, it is.
    const rotated = await one.rotate();
    reads.mockClear();
    clock.advance(UNKNOWN_KID_RELOAD_MS - 1);
    expect(await two.findFresh(rotated!.kid)).toBeUndefined();
    clock.advance(1);
    expect((await two.findFresh(rotated!.kid))?.kid).toBe(rotated!.kid);
    expect(reads).toHaveBeenCalledTimes(1);

    // A known kid never costs a reload.
    expect((await two.findFresh(two.current().kid))?.kid).toBe(two.current().kid);
    expect(reads).toHaveBeenCalledTimes(1);
  });
});
