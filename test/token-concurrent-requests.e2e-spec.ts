import request from 'supertest';
import { basic, createIntegration, type CreatedIntegration } from './support/admin-api.js';
import { startTestApp, type TestApp } from './support/test-app.js';

const TOKEN = '/api/oauth/token';
const LIMIT = 2;

const count = (responses: request.Response[], status: number) => responses.filter((r) => r.status === status).length;

/*
 * The failure limiter takes a point before checking credentials, so that concurrent guesses cannot slip past it;
 * requests in flight must not make valid clients look like guessers.
 */
describe('Token endpoint: concurrent requests of one client from one address', () => {
  let t: TestApp;
  let valid: CreatedIntegration;
  let target: CreatedIntegration;
  const attempt = (id: string, secret: string) =>
    request(t.url)
      .post(TOKEN)
      .set('Authorization', basic(id, secret))
      .type('form')
      .send({ grant_type: 'client_credentials' });

  beforeAll(async () => {
    // A low limit, so that more requests than it are surely in flight at once; 300 connections from one address.
    t = await startTestApp({ TOKEN_FAILURES_PER_MINUTE: String(LIMIT), HTTP_MAX_CONNECTIONS_PER_ADDRESS: '400' });
    valid = await createIntegration(t, ['product:read']);
    target = await createIntegration(t, ['product:read']);
  });
  afterAll(async () => t.close({ destroy: true }));

  it('answers 64 concurrent valid client_credentials requests all with 200', async () => {
    const responses = await Promise.all(
      Array.from({ length: 64 }, () => attempt(valid.access_key_id, valid.secret_access_key)),
    );
    expect(responses.map((res) => res.status)).toEqual(Array<number>(64).fill(200));
  });

  it('still checks at most TOKEN_FAILURES_PER_MINUTE of 300 concurrent wrong secrets', async () => {
    const responses = await Promise.all(
      Array.from({ length: 300 }, () => attempt(target.access_key_id, 'ffsk_wrong-secret')),
    );
    expect({ checked: count(responses, 401), refused: count(responses, 429) }).toEqual({
      checked: LIMIT,
      refused: 300 - LIMIT,
    });
    expect(Number(responses.find((res) => res.status === 429)!.headers['retry-after'])).toBeGreaterThan(0);
    // The locked-out client stays locked out, even with its right secret; the other is served.
    expect((await attempt(target.access_key_id, target.secret_access_key)).status).toBe(429);
    await attempt(valid.access_key_id, valid.secret_access_key).expect(200);
  });
});
