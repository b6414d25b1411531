import { jest } from '@jest/globals';
import { RateLimiterMemory } from 'rate-limiter-flexible';
import { noRedis } from '../../redis/testing.js';
import { OAuthError, TooManyAttemptsError } from '../credentials/oauth-error.js';
import { clientAccount, TokenFailureLimiter, type AttemptAccount } from './token-failure-limiter.js';
import { loadTokenConfig } from '../token.config.js';

const client: AttemptAccount = { kind: 'client', name: 'FFIA1' };
const IP = '192.0.2.1';

/** Lets every promise callback that can run, run (the memory store answers within a few turns). */
const flush = async () => {
  for (let i = 0; i < 50; i++) await Promise.resolve();
};

describe('TokenFailureLimiter', () => {
  let limiter: TokenFailureLimiter;

  // rate-limiter-flexible's memory store reads Date.now() and expires keys with setTimeout: fake timers move both.
  beforeEach(() => {
    jest.useFakeTimers();
    limiter = new TokenFailureLimiter(
      loadTokenConfig({ TOKEN_FAILURES_PER_MINUTE: '3', TOKEN_FAILURE_WINDOW_SECONDS: '2' }),
      noRedis(),
    );
  });
  afterEach(() => jest.useRealTimers());

  const fail = async (account: AttemptAccount = client, ip = IP) => {
    await limiter.begin(account, ip);
  };

  it('refuses with Retry-After past the limit, and lets the account back in once the window has passed', async () => {
    for (let i = 0; i < 3; i++) await fail();
    const refusal = limiter.begin(client, IP);
    await expect(refusal).rejects.toBeInstanceOf(TooManyAttemptsError);
    await expect(refusal).rejects.toMatchObject({ status: 429, headers: { 'Retry-After': '2' } });

    jest.advanceTimersByTime(1_000);
    await expect(limiter.begin(client, IP)).rejects.toMatchObject({ headers: { 'Retry-After': '1' } });
    jest.advanceTimersByTime(1_000);
    await expect(limiter.begin(client, IP)).resolves.toBeDefined();
  });

  it("counts an account's failures per address: another address is not refused", async () => {
    for (let i = 0; i < 3; i++) await fail();
    await expect(limiter.begin(client, '192.0.2.2')).resolves.toBeDefined();
  });

  it('forgives a success and gives back a refunded point', async () => {
    for (let i = 0; i < 2; i++) await fail();
    await (await limiter.begin(client, IP)).succeeded();
    for (let i = 0; i < 2; i++) await fail();
    await (await limiter.begin(client, IP)).refund();
    await expect(limiter.begin(client, IP)).resolves.toBeDefined();
    await expect(limiter.begin(client, IP)).rejects.toBeInstanceOf(TooManyAttemptsError);
  });

  it("gives back a refused attempt's points: a locked-out account does not use up its address", async () => {
    const ipLimited = new TokenFailureLimiter(
      loadTokenConfig({
        TOKEN_FAILURES_PER_MINUTE: '3',
        TOKEN_FAILURES_PER_IP: '5',
        TOKEN_FAILURE_WINDOW_SECONDS: '2',
      }),
      noRedis(),
    );
    for (let i = 0; i < 3; i++) await ipLimited.begin(client, IP);
    for (let i = 0; i < 10; i++) await expect(ipLimited.begin(client, IP)).rejects.toBeInstanceOf(TooManyAttemptsError);
    const other: AttemptAccount = { kind: 'client', name: 'FFIA2' };
    await expect(ipLimited.begin(other, IP)).resolves.toBeDefined();
    await expect(ipLimited.begin(other, IP)).resolves.toBeDefined();
    await expect(ipLimited.begin(other, IP)).rejects.toBeInstanceOf(TooManyAttemptsError);
  });

  describe('limited (one request of the token or revocation endpoint)', () => {
    const invalidClient = () => Promise.reject(OAuthError.invalidClient('Wrong secret.', false));
    const run = (handle: () => Promise<unknown>, parse: () => string = () => 'request') =>
      limiter.limited(IP, parse, () => client, handle);

    it("keeps the point of an OAuth failure and of an unexpected error (a 500), refunds only a busy answer's", async () => {
      await expect(run(invalidClient)).rejects.toMatchObject({ error: 'invalid_client' });
      await expect(run(() => Promise.reject(new Error('database down')))).rejects.toThrow('database down');
      for (let i = 0; i < 3; i++) {
        await expect(
          run(() => Promise.reject(new OAuthError('temporarily_unavailable', 'Busy.', 503))),
        ).rejects.toThrow();
      }
      await expect(run(invalidClient)).rejects.toMatchObject({ error: 'invalid_client' });
      await expect(run(() => Promise.resolve('ok'))).rejects.toBeInstanceOf(TooManyAttemptsError);
    });

    it('lets concurrent valid requests beyond the limit in as the ones in flight succeed', async () => {
      const pending: Array<() => void> = [];
      const handle = () => new Promise<string>((resolve) => pending.push(() => resolve('ok')));
      const results = Array.from({ length: 8 }, () => run(handle));
      await flush();
      // The limit's worth are checked at once; the others wait instead of being refused.
      expect(pending).toHaveLength(3);
      while (pending.length > 0) {
        pending.shift()!();
        await flush();
      }
      await expect(Promise.all(results)).resolves.toEqual(Array(8).fill('ok'));
    });

    it('checks at most the limit of concurrent failures, and refuses the rest once they are known', async () => {
      const pending: Array<() => void> = [];
      const handle = () =>
        new Promise<never>((_resolve, reject) =>
          pending.push(() => reject(OAuthError.invalidClient('Wrong secret.', false))),
        );
      const results = Array.from({ length: 30 }, () => run(handle).catch((error: unknown) => error));
      await flush();
      expect(pending).toHaveLength(3);
      pending.splice(0).forEach((fail) => fail());
      const errors = await Promise.all(results);
      expect(pending).toHaveLength(0);
      expect(errors.filter((error) => error instanceof TooManyAttemptsError)).toHaveLength(27);
    });

    it('refuses at once an account over its limit, whatever other requests from its address have in flight', async () => {
      for (let i = 0; i < 3; i++) await expect(run(invalidClient)).rejects.toMatchObject({ error: 'invalid_client' });
      const other: AttemptAccount = { kind: 'client', name: 'FFIA2' };
      const pending = limiter.limited(
        IP,
        () => 'request',
        () => other,
        () => new Promise<never>(() => undefined),
      );
      void pending;
      const refused = run(() => Promise.resolve('ok')).catch((error: unknown) => error);
      await flush();
      await expect(Promise.race([refused, Promise.resolve('still waiting')])).resolves.toBeInstanceOf(
        TooManyAttemptsError,
      );
    });

    it('refuses a waiting request after a while if those in flight never settle', async () => {
      const stuck = Array.from({ length: 3 }, () => run(() => new Promise<never>(() => undefined)));
      void stuck;
      const waiting = run(() => Promise.resolve('ok'));
      await flush();
      jest.advanceTimersByTime(10_000);
      await expect(waiting).rejects.toBeInstanceOf(TooManyAttemptsError);
    });

    it('touches no counter for a success where no failure was counted, and counts a failure after the fact', async () => {
      const counters = ['consume', 'reward', 'delete', 'get'] as const;
      const spies = counters.map((method) => jest.spyOn(RateLimiterMemory.prototype, method));
      try {
        for (let i = 0; i < 5; i++) await expect(run(() => Promise.resolve('ok'))).resolves.toBe('ok');
        expect(spies.map((spy) => spy.mock.calls.length)).toEqual([0, 0, 0, 0]);
        await expect(run(invalidClient)).rejects.toMatchObject({ error: 'invalid_client' });
        expect(spies[0].mock.calls.map(([key]) => key)).toEqual([`client:FFIA1|${IP}`, 'client:FFIA1', `ip:${IP}`]);
      } finally {
        spies.forEach((spy) => spy.mockRestore());
      }
      // Counted: two more failures use up the limit of 3.
      for (let i = 0; i < 2; i++) await expect(run(invalidClient)).rejects.toMatchObject({ error: 'invalid_client' });
      await expect(run(() => Promise.resolve('ok'))).rejects.toBeInstanceOf(TooManyAttemptsError);
    });

    it('forgives the failures of an account that then succeeds', async () => {
      for (let i = 0; i < 2; i++) await expect(run(invalidClient)).rejects.toMatchObject({ error: 'invalid_client' });
      await expect(run(() => Promise.resolve('ok'))).resolves.toBe('ok');
      for (let i = 0; i < 3; i++) await expect(run(invalidClient)).rejects.toMatchObject({ error: 'invalid_client' });
    });

    it('charges a request that cannot be parsed to its address alone', async () => {
      const ipLimited = new TokenFailureLimiter(loadTokenConfig({ TOKEN_FAILURES_PER_IP: '2' }), noRedis());
      const malformed = () => {
        throw new OAuthError('invalid_request', 'Malformed.');
      };
      const handle = () => Promise.resolve('ok');
      for (let i = 0; i < 2; i++) {
        await expect(ipLimited.limited(IP, malformed, () => client, handle)).rejects.toThrow('Malformed.');
      }
      const other: AttemptAccount = { kind: 'client', name: 'FFIA2' };
      await expect(
        ipLimited.limited(
          IP,
          () => 'request',
          () => other,
          handle,
        ),
      ).rejects.toBeInstanceOf(TooManyAttemptsError);
      await expect(
        ipLimited.limited(
          '192.0.2.2',
          () => 'request',
          () => other,
          handle,
        ),
      ).resolves.toBe('ok');
    });
  });

  it('counts the shared administration client per address only, any other client per account', () => {
    expect(clientAccount({ clientId: 'administration', method: 'none' })).toBeUndefined();
    expect(clientAccount({ clientId: 'FFIA1', clientSecret: 's', method: 'client_secret_basic' })).toEqual(client);
  });
});
