import request from 'supertest';
import { createIntegration, type CreatedIntegration } from './support/admin-api.js';
import { freePort } from './support/free-port.js';
import { OwnRedis } from './support/own-redis.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import { eventually } from './support/wait.js';

/*
 * A Redis server that holds its connections but answers nothing (SIGSTOP: a hung or swapped-out server). A Redis
 * server of this suite's own, never the shared one: the test stops it.
 */
const PREFIX = 'hung';

/** How long a command waits for the hung server: what a request that meets it waits for, once. */
const COMMAND_TIMEOUT_MS = 2_000;
/**
 * What a token request may take once the breaker is open (no wait on Redis at all): a few milliseconds alone, far
 * longer on a loaded machine, yet clearly less than a command timeout.
 */
const FAST_MS = COMMAND_TIMEOUT_MS / 2;

describe('With a Redis server that stops answering, the service answers on its own state', () => {
  let redis: OwnRedis;
  let t: TestApp;
  let integration: CreatedIntegration;

  beforeAll(async () => {
    redis = new OwnRedis(await freePort());
    await redis.start();
    t = await startTestApp({
      REDIS_URL: redis.url,
      REDIS_KEY_PREFIX: PREFIX,
      REDIS_COMMAND_TIMEOUT: `${COMMAND_TIMEOUT_MS}ms`,
    });
    integration = await createIntegration(t, ['product:read']);
  });
  afterAll(async () => {
    await t?.close({ destroy: true });
    await redis?.stop();
  });

  const tokenRequest = (secret = integration.secret_access_key) =>
    request(t.url)
      .post('/api/oauth/token')
      .send({ grant_type: 'client_credentials', client_id: integration.access_key_id, client_secret: secret });
  const timed = async (expected: number, secret?: string) => {
    const started = Date.now();
    await tokenRequest(secret).expect(expected);
    return Date.now() - started;
  };

  it('answers token requests without waiting on it, still limits failures, and shares state again once it is back', async () => {
    await timed(200);
    // A failure leaves its counters in Redis: the limits are shared there.
    await timed(401, 'wrong');
    expect((await redis.keys(PREFIX))?.length).toBeGreaterThan(0);

    redis.signal('SIGSTOP');
    try {
      // The first request meets the hung server (one command timeout); the breaker opens then.
      await timed(200);
      const times: number[] = [];
      for (let i = 0; i < 5; i++) times.push(await timed(200));
      expect(Math.max(...times)).toBeLessThan(FAST_MS);

      // Failures are still limited, in this instance's memory: 10 per client and address.
      const other = await createIntegration(t, ['product:read']);
      const wrong = () =>
        request(t.url)
          .post('/api/oauth/token')
          .send({ grant_type: 'client_credentials', client_id: other.access_key_id, client_secret: 'wrong' });
      for (let i = 0; i < 10; i++) await wrong().expect(401);
      const started = Date.now();
      await wrong().expect(429);
      expect(Date.now() - started).toBeLessThan(FAST_MS);
    } finally {
      redis.signal('SIGCONT');
    }

    // Once the server answers again the breaker closes: a new failure is counted in Redis again.
    const before = (await redis.keys(PREFIX))?.length ?? 0;
    const third = await createIntegration(t, ['product:read']);
    await eventually(
      'failures to be counted in Redis again',
      async () => {
        await request(t.url)
          .post('/api/oauth/token')
          .send({ grant_type: 'client_credentials', client_id: third.access_key_id, client_secret: 'wrong' })
          .expect(401);
        return ((await redis.keys(PREFIX))?.length ?? 0) > before ? true : undefined;
      },
      // A probe every second, each waiting up to a command timeout.
      15_000,
      250,
    );
  });
});
