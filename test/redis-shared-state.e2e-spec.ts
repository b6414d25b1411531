import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { basic, createIntegration } from './support/admin-api.js';
import { pkce, signInAt } from './support/authorization-code.js';
import { freePort } from './support/free-port.js';
import { OwnRedis } from './support/own-redis.js';
import {
  buildService,
  startServiceProcess,
  type ServiceBuild,
  type ServiceProcess,
} from './support/service-process.js';
import {
  ADMIN_PASSWORD,
  createTestDatabase,
  passwordToken,
  startApp,
  type TestApp,
  type TestDatabase,
} from './support/test-app.js';
import { eventually, staysTrue } from './support/wait.js';

/*
 * Two instances of the service on one database and one Redis server (this machine's, 127.0.0.1:6379, or
 * TEST_REDIS_URL): failure limits and revocations hold across them. A runs in the test's process, B in one of its own,
 * both behind one issuer as behind a load balancer. Revocation cache entries live for a minute here, so only the
 * broadcast can end a token within a second.
 */
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const ISSUER = 'https://service.test';
/** Far below the revocation cache's 60 s, and generous for a busy machine: only the broadcast ends a token that soon. */
const BROADCAST_DEADLINE_MS = 10_000;

/** An instance: the one in this process, or one in a process of its own. */
type Instance = { url: string };

let build: ServiceBuild;
beforeAll(async () => {
  build = await buildService('redis');
}, 120_000);
afterAll(() => build?.remove());

const tokenRequest = (t: Instance, clientId: string, secret: string) =>
  request(t.url)
    .post('/api/oauth/token')
    .send({ grant_type: 'client_credentials', client_id: clientId, client_secret: secret });

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

/** Whether instance `t` accepts `token` on a route that needs product:read (undefined while it still does). */
const refusedOn = (t: Instance, token: string) => async () => {
  const res = await request(t.url).get('/products').set(bearer(token));
  return res.status === 401 ? true : undefined;
};

async function integrationToken(a: TestApp): Promise<{ id: number; token: string }> {
  const integration = await createIntegration(a, ['product:read']);
  const res = await tokenRequest(a, integration.access_key_id, integration.secret_access_key).expect(200);
  return { id: integration.id, token: (res.body as { access_token: string }).access_token };
}

describe('State shared through Redis by two instances', () => {
  let database: TestDatabase;
  let a: TestApp;
  let b: ServiceProcess;
  /** An instance on the same database without Redis: it only learns of revocations when its cache expires. */
  let alone: ServiceProcess;

  beforeAll(async () => {
    database = await createTestDatabase();
    const cache = { OAUTH_ISSUER: ISSUER, REVOCATION_CACHE_SECONDS: '60' };
    // A busy machine can hold a command past the default 250 ms: Redis would count as failing and each instance
    // fall back on its own state, which is what redis-hung-server tests, not this suite.
    const shared = {
      ...cache,
      REDIS_URL,
      REDIS_KEY_PREFIX: `e2e-${randomBytes(6).toString('hex')}`,
      REDIS_COMMAND_TIMEOUT: '5s',
    };
    a = await startApp(database, shared);
    b = await startServiceProcess(build, database, shared);
    alone = await startServiceProcess(build, database, cache);
  });

  afterAll(async () => {
    await alone?.stop();
    await b?.stop();
    await a?.close({ destroy: true });
  });

  it('counts failed token requests across instances: 10 failures on A and 1 on B give 429 on B', async () => {
    const integration = await createIntegration(a, ['product:read']);
    for (let i = 0; i < 10; i++) await tokenRequest(a, integration.access_key_id, 'wrong').expect(401);
    const res = await tokenRequest(b, integration.access_key_id, 'wrong').expect(429);
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    expect(res.body).toMatchObject({ error: 'invalid_request' });
    // The instance without Redis counts alone: it has seen no failure yet.
    await tokenRequest(alone, integration.access_key_id, 'wrong').expect(401);
  });

  it("ends an integration's token on B long before its cache expires, on disabling it on A", async () => {
    const { id, token } = await integrationToken(a);
    for (const t of [a, b, alone]) await request(t.url).get('/products').set(bearer(token)).expect(200);
    await a.http.patch(`/api/integrations/${id}`).send({ active: false }).expect(200);
    await eventually('B to refuse the token', refusedOn(b, token), BROADCAST_DEADLINE_MS);
    // Proof that the broadcast did it: the instance without Redis still trusts its cached state.
    await staysTrue(
      'the instance without Redis to accept the token from its cache',
      async () => (await request(alone.url).get('/products').set(bearer(token))).status === 200,
      300,
    );
  });

  it("ends an integration's token on B long before its cache expires, on deleting it on A", async () => {
    const { id, token } = await integrationToken(a);
    await request(b.url).get('/products').set(bearer(token)).expect(200);
    await a.http.delete(`/api/integrations/${id}`).expect(204);
    await eventually('B to refuse the token', refusedOn(b, token), BROADCAST_DEADLINE_MS);
  });

  it("ends a user's tokens on B long before its cache expires, on a password change on A", async () => {
    await a.http
      .post('/api/roles')
      .send({ name: 'catalog-reader', permissions: ['product:read'] })
      .expect(201);
    const user = await a.http
      .post('/api/users')
      .send({ username: 'reader', password: 'first-password-1', role: 'catalog-reader' })
      .expect(201);
    const { access_token } = await passwordToken(b.url, 'reader', 'first-password-1');
    await request(b.url).get('/products').set(bearer(access_token)).expect(200);
    await a.http
      .patch(`/api/users/${(user.body as { id: number }).id}`)
      .send({ password: 'second-password-2' })
      .expect(200);
    await eventually("B to refuse the user's token", refusedOn(b, access_token), BROADCAST_DEADLINE_MS);
  });

  it('ends tokens on B long before its cache expires, on a role being narrowed on A', async () => {
    const role = 'narrowed-later';
    const createdRole = await a.http
      .post('/api/roles')
      .send({ name: role, permissions: ['product:read', 'article:read'] })
      .expect(201);
    const created = await a.http.post('/api/integrations').send({ label: 'narrowed', role }).expect(201);
    const { access_key_id, secret_access_key } = created.body as { access_key_id: string; secret_access_key: string };
    const token = (
      (await tokenRequest(b, access_key_id, secret_access_key).expect(200)).body as { access_token: string }
    ).access_token;
    await request(b.url).get('/products').set(bearer(token)).expect(200);
    await a.http
      .patch(`/api/roles/${(createdRole.body as { id: number }).id}`)
      .send({ permissions: ['article:read'] })
      .expect(200);
    await eventually('B to refuse the token', refusedOn(b, token), BROADCAST_DEADLINE_MS);
  });

  it("ends a registered application's tokens on B long before its cache expires, on deleting the application on A", async () => {
    const callback = 'https://shop.example/oauth/callback';
    const registered = await a.http
      .post('/api/oauth/clients')
      .send({ name: 'Shop', redirect_uris: [callback], public: true, scopes: ['*'] })
      .expect(201);
    const clientId = (registered.body as { client_id: string }).client_id;
    const { verifier, challenge } = await pkce();
    const target = new URL('/api/oauth/authorize', b.url);
    const params = { response_type: 'code', client_id: clientId, redirect_uri: callback, code_challenge: challenge };
    for (const [name, value] of Object.entries({ ...params, code_challenge_method: 'S256' }))
      target.searchParams.set(name, value);
    const back = await signInAt(b.url, target, 'admin', ADMIN_PASSWORD);
    const redeemed = await request(b.url)
      .post('/api/oauth/token')
      .type('form')
      .send({
        grant_type: 'authorization_code',
        client_id: clientId,
        code: back.searchParams.get('code'),
        redirect_uri: callback,
        code_verifier: verifier,
      })
      .expect(200);
    const token = (redeemed.body as { access_token: string }).access_token;
    for (const t of [b, alone]) await request(t.url).get('/products').set(bearer(token)).expect(200);
    await a.http.delete(`/api/oauth/clients/${clientId}`).expect(204);
    await eventually('B to refuse the token', refusedOn(b, token), BROADCAST_DEADLINE_MS);
    await staysTrue(
      'the instance without Redis to accept the token from its cache',
      async () => (await request(alone.url).get('/products').set(bearer(token))).status === 200,
      300,
    );
  });

  it('uses the client credentials grant normally once the limits are shared (Basic and body)', async () => {
    const integration = await createIntegration(a, ['product:read']);
    await request(a.url)
      .post('/api/oauth/token')
      .set('Authorization', basic(integration.access_key_id, integration.secret_access_key))
      .send({ grant_type: 'client_credentials' })
      .expect(200);
    await tokenRequest(b, integration.access_key_id, integration.secret_access_key).expect(200);
  });
});

/** The connections in subscriber mode in a CLIENT LIST. */
const subscribers = (clients: string) => clients.split('\n').filter((line) => / sub=[1-9]/.test(line)).length;
/** The instances' command connections in a CLIENT LIST (not subscribed, not the probe asking for the list). */
const commandConnections = (clients: string) =>
  clients.split('\n').filter((line) => / sub=0 /.test(line) && !line.includes('cmd=client|list')).length;

/** B's revocation cache lifetime below, in seconds. */
const CACHE_SECONDS = 10;

describe('When Redis goes away', () => {
  let database: TestDatabase;
  let redis: OwnRedis;
  let a: TestApp;
  let b: ServiceProcess;

  beforeAll(async () => {
    redis = new OwnRedis(await freePort());
    await redis.start();
    database = await createTestDatabase();
    // With Redis gone, the revocation bound falls back to the cache lifetime; with Redis back, a change reaches B well
    // within it (half of it, a margin for a loaded machine).
    const shared = {
      OAUTH_ISSUER: ISSUER,
      REDIS_URL: redis.url,
      REDIS_KEY_PREFIX: 'e2e',
      REVOCATION_CACHE_SECONDS: String(CACHE_SECONDS),
    };
    a = await startApp(database, shared);
    b = await startServiceProcess(build, database, shared);
  });

  afterAll(async () => {
    await b?.stop();
    await a?.close({ destroy: true });
    await redis?.stop();
  });

  it('keeps serving, limits each instance on its own, and falls back to the cache lifetime for revocations', async () => {
    const integration = await createIntegration(a, ['product:read']);
    const timedTokenRequest = async () => {
      const started = Date.now();
      const res = await tokenRequest(b, integration.access_key_id, integration.secret_access_key).expect(200);
      return { res, ms: Date.now() - started };
    };
    // The same request with Redis up, the second of two (the first warms the instance up), for comparison.
    await timedTokenRequest();
    const up = await timedTokenRequest();
    await redis.stop();

    // No wait on Redis: a command sent to it would cost its 1 s timeout on top of the usual time.
    const { res, ms } = await timedTokenRequest();
    expect(ms - up.ms).toBeLessThan(1_000);
    const token = (res.body as { access_token: string }).access_token;

    // Failures are still limited, per instance (the insurance limiter in memory).
    const other = await createIntegration(a, ['product:read']);
    for (let i = 0; i < 10; i++) await tokenRequest(a, other.access_key_id, 'wrong').expect(401);
    await tokenRequest(a, other.access_key_id, 'wrong').expect(429);

    await request(b.url).get('/products').set(bearer(token)).expect(200);
    await a.http.patch(`/api/integrations/${integration.id}`).send({ active: false }).expect(200);
    await eventually('B to refuse the token once its cache expired', refusedOn(b, token), 3 * CACHE_SECONDS * 1000);
  });

  it('shares state again once Redis is back', async () => {
    await redis.start();
    const { id, token } = await integrationToken(a);
    // Both instances reconnect by themselves, each with its subscription and its command connection (A publishes on
    // that one, which drops what it is given while it is still reconnecting); once they have, a change on A reaches B
    // at once again.
    await eventually(
      'both instances to be connected to Redis again',
      async () => {
        const clients = await redis.clients();
        return subscribers(clients) >= 2 && commandConnections(clients) >= 2 ? true : undefined;
      },
      10_000,
      200,
    );
    // B holds the token in its cache from now on: refusing it sooner than the cache lifetime, B was told.
    await request(b.url).get('/products').set(bearer(token)).expect(200);
    await a.http.patch(`/api/integrations/${id}`).send({ active: false }).expect(200);
    await eventually('B to refuse the token', refusedOn(b, token), (CACHE_SECONDS * 1000) / 2);
  });
});

/** An instance whose Redis cannot be reached at all still starts and serves. */
describe('With REDIS_URL pointing nowhere', () => {
  let t: TestApp;

  beforeAll(async () => {
    const port = await freePort();
    t = await startApp(await createTestDatabase(), { REDIS_URL: `redis://127.0.0.1:${port}` });
  });

  afterAll(() => t?.close({ destroy: true }));

  it('starts and issues tokens', async () => {
    const integration = await createIntegration(t, ['product:read']);
    const res = await tokenRequest(t, integration.access_key_id, integration.secret_access_key).expect(200);
    await request(t.url)
      .get('/products')
      .set(bearer((res.body as { access_token: string }).access_token))
      .expect(200);
  });
});
