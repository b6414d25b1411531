import request from 'supertest';
import { basic, createIntegration } from './support/admin-api.js';
import { ADMIN_PASSWORD, startTestApp, type TestApp } from './support/test-app.js';

const TOKEN = '/api/oauth/token';
const PASSWORD = 'a-long-enough-password';

const passwordAttempt = (t: TestApp, username: string, password: string) =>
  request(t.url).post(TOKEN).send({ grant_type: 'password', client_id: 'administration', username, password });
const statuses = (responses: request.Response[]) => responses.map((res) => res.status);
const count = (responses: request.Response[], status: number) => responses.filter((r) => r.status === status).length;

describe('Token endpoint failure limits', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ TOKEN_FAILURES_PER_MINUTE: '10', TOKEN_FAILURES_PER_IP: '10000' });
    for (const username of ['mallory', 'bystander']) {
      await t.http.post('/api/users').send({ username, password: PASSWORD, role: 'admin' }).expect(201);
    }
  });
  afterAll(async () => t.close({ destroy: true }));

  it('takes the point before checking: of 60 concurrent wrong passwords exactly 10 are checked', async () => {
    const responses = await Promise.all(
      Array.from({ length: 60 }, () => passwordAttempt(t, 'bystander', 'wrong-password-123')),
    );
    expect(count(responses, 400)).toBe(10);
    expect(count(responses, 429)).toBe(50);
    const limited = responses.find((res) => res.status === 429)!;
    expect(limited.body.error).toBe('invalid_request');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('counts password failures per username: locking one account out locks out nobody else', async () => {
    for (let i = 0; i < 11; i++) await passwordAttempt(t, 'ghost', 'wrong-password-123');
    expect((await passwordAttempt(t, 'ghost', 'wrong-password-123')).status).toBe(429);
    await passwordAttempt(t, 'admin', ADMIN_PASSWORD).expect(200);
    await passwordAttempt(t, 'mallory', PASSWORD).expect(200);
  });

  it("does not let one account's successes reset another account's failures", async () => {
    const victim: request.Response[] = [];
    for (let round = 0; round < 2; round++) {
      for (let i = 0; i < 8; i++) victim.push(await passwordAttempt(t, 'admin', 'guess-password-123'));
      await passwordAttempt(t, 'mallory', PASSWORD).expect(200);
    }
    expect(statuses(victim)).toEqual([...Array<number>(10).fill(400), ...Array<number>(6).fill(429)]);
  });

  it('counts client_secret_basic failures per client, and a success clears only its own count', async () => {
    const target = await createIntegration(t, ['product:read']);
    const other = await createIntegration(t, ['product:read']);
    const attempt = (id: string, secret: string) =>
      request(t.url)
        .post(TOKEN)
        .set('Authorization', basic(id, secret))
        .type('form')
        .send({ grant_type: 'client_credentials' });
    const tries: number[] = [];
    for (let i = 0; i < 11; i++) tries.push((await attempt(target.access_key_id, 'ffsk_wrong')).status);
    expect(tries).toEqual([...Array<number>(10).fill(401), 429]);
    expect((await attempt(target.access_key_id, target.secret_access_key)).status).toBe(429);
    await attempt(other.access_key_id, other.secret_access_key).expect(200);
  });
});

describe('Token endpoint: per-address cap and bounded password hashing', () => {
  it('caps failures per IP address whatever the account', async () => {
    const t = await startTestApp({ TOKEN_FAILURES_PER_IP: '15' });
    try {
      for (let i = 0; i < 15; i++) await passwordAttempt(t, `nobody-${i}`, 'wrong-password-123').expect(400);
      const res = await passwordAttempt(t, 'admin', ADMIN_PASSWORD);
      expect(res.status).toBe(429);
      expect(res.headers['retry-after']).toBeDefined();
    } finally {
      await t.close({ destroy: true });
    }
  });

  it('counts per client address behind a trusted proxy (TRUST_PROXY), not per proxy', async () => {
    const t = await startTestApp({ TOKEN_FAILURES_PER_IP: '15', TRUST_PROXY: 'loopback' });
    try {
      const from = (address: string, username: string, password: string) =>
        passwordAttempt(t, username, password).set('X-Forwarded-For', address);
      for (let i = 0; i < 15; i++) await from('203.0.113.7', `nobody-${i}`, 'wrong-password-123').expect(400);
      expect((await from('203.0.113.7', 'admin', ADMIN_PASSWORD)).status).toBe(429);
      await from('198.51.100.9', 'admin', ADMIN_PASSWORD).expect(200);
    } finally {
      await t.close({ destroy: true });
    }
  });

  it('answers 503 with Retry-After beyond the hashing queue, and keeps serving other requests', async () => {
    const t = await startTestApp({
      PASSWORD_HASH_CONCURRENCY: '1',
      PASSWORD_HASH_QUEUE: '10',
      TOKEN_FAILURES_PER_MINUTE: '1000',
      TOKEN_FAILURES_PER_ACCOUNT: '1000',
      TOKEN_FAILURES_PER_IP: '1000',
    });
    try {
      // One check runs at a time and 10 wait, at about 50 ms of scrypt each: over half a second of checks.
      let lastAnsweredAt = 0;
      const storm = Promise.all(
        Array.from({ length: 40 }, (_, i) =>
          passwordAttempt(t, `user-${i}`, 'wrong-password-123').then((res) => {
            lastAnsweredAt = Date.now();
            return res;
          }),
        ),
      );
      await t.http.get('/products').expect(200);
      const readAt = Date.now();
      const responses = await storm;
      const busy = responses.filter((res) => res.status === 503);
      expect(busy.length).toBeGreaterThan(0);
      expect(busy[0].body.error).toBe('temporarily_unavailable');
      expect(busy[0].headers['retry-after']).toBe('1');
      expect(count(responses, 400)).toBeGreaterThanOrEqual(11);
      expect(count(responses, 400) + busy.length).toBe(40);
      // The read was answered while the checks were still running, not after them.
      expect(readAt).toBeLessThan(lastAnsweredAt);
      // A busy answer is not the client's fault: it costs no failure point.
      for (let i = 0; i < 3; i++) await passwordAttempt(t, 'admin', ADMIN_PASSWORD).expect(200);
    } finally {
      await t.close({ destroy: true });
    }
  });
});
