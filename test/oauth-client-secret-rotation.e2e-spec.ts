import request from 'supertest';
import { basic } from './support/admin-api.js';
import { startTestApp, type TestApp } from './support/test-app.js';

const CLIENTS = '/api/oauth/clients';

/**
 * Concurrent rotations of an OAuth client's secret: each answers a secret that works, as an integration's rotation
 * does (the previous secret keeps SECRET_ROTATION_GRACE; the row lock orders the rotations on PostgreSQL, SQLite runs
 * one transaction at a time). Run on PostgreSQL with TEST_DATABASE_URL.
 */
describe('Concurrent rotations of an OAuth client secret', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ TOKEN_FAILURES_PER_MINUTE: '1000' });
  });
  afterAll(async () => t.close({ destroy: true }));

  /** Whether the client authenticates with `secret`: the revocation endpoint answers 200 only to an authenticated one. */
  const authenticates = async (clientId: string, secret: string) => {
    const res = await request(t.url)
      .post('/api/oauth/revoke')
      .type('form')
      .set('Authorization', basic(clientId, secret))
      .send({ token: 'not-a-token' });
    return res.status;
  };

  it('answers every rotation with a working secret', async () => {
    const created = await t.http
      .post(CLIENTS)
      .send({ name: 'Shop', redirect_uris: ['https://shop.example/cb'], public: false, scopes: ['product:read'] })
      .expect(201);
    const id = created.body.client_id as string;
    for (let round = 0; round < 4; round++) {
      const answers = await Promise.all([
        t.http.post(`${CLIENTS}/${id}/secret`),
        t.http.post(`${CLIENTS}/${id}/secret`),
      ]);
      expect({ round, statuses: answers.map((res) => res.status) }).toEqual({ round, statuses: [200, 200] });
      const secrets = answers.map((res) => res.body.client_secret as string);
      expect(new Set(secrets).size).toBe(2);
      const working = await Promise.all(secrets.map((secret) => authenticates(id, secret)));
      expect({ round, working }).toEqual({ round, working: [200, 200] });
    }
  });
});
