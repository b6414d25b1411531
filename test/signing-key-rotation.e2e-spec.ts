import { jest } from '@jest/globals';
import request from 'supertest';
import { Clock } from '@file-fields/nest';
import { SigningKeysService } from '../src/token/issuing/signing-keys.service.js';
import { ADMIN_PASSWORD, passwordToken, startTestApp, type TestApp } from './support/test-app.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

describe('Signing-key rotation', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterEach(() => jest.restoreAllMocks());
  afterAll(async () => t.close({ destroy: true }));

  const jwksKids = async () => {
    const res = await request(t.url).get('/.well-known/jwks.json').expect(200);
    return (res.body as { keys: Array<{ kid: string }> }).keys.map((key) => key.kid);
  };
  const signIn = async () => (await passwordToken(t.url, 'admin', ADMIN_PASSWORD)).access_token;
  const kidOf = (token: string) =>
    (JSON.parse(Buffer.from(token.split('.')[0] ?? '', 'base64url').toString()) as { kid: string }).kid;
  const at = (ms: number) => jest.spyOn(t.app.get(Clock), 'nowMs').mockReturnValue(ms);

  it('publishes the new key first, signs with it after the prepublish time, and drops the old one after its tokens expired', async () => {
    const [oldKid] = await jwksKids();
    expect(await jwksKids()).toHaveLength(1);
    const start = Date.now();

    const rotated = await t.app.get(SigningKeysService).rotate();
    expect(rotated?.activatesAt).toBeGreaterThanOrEqual(start + HOUR);
    expect((await jwksKids()).sort()).toEqual([oldKid, rotated?.kid].sort());
    expect(kidOf(await signIn())).toBe(oldKid);

    // Just before the new key activates (SIGNING_KEY_PREPUBLISH defaults to 1h), tokens still carry the old kid.
    at(start + HOUR - MINUTE);
    const oldToken = await signIn();
    expect(kidOf(oldToken)).toBe(oldKid);

    at(start + HOUR + 5 * MINUTE);
    const newToken = await signIn();
    expect(kidOf(newToken)).toBe(rotated?.kid);
    await request(t.url).get('/products').set('Authorization', `Bearer ${oldToken}`).expect(200);
    await request(t.url).get('/products').set('Authorization', `Bearer ${newToken}`).expect(200);
    expect(await jwksKids()).toHaveLength(2);

    // ACCESS_TOKEN_TTL (1h) after the old key retired, none of its tokens can be live: it leaves the JWKS.
    at(start + 2 * HOUR + 5 * MINUTE);
    expect(await jwksKids()).toEqual([rotated?.kid]);
    await request(t.url).get('/products').set('Authorization', `Bearer ${oldToken}`).expect(401);
    await request(t.url)
      .get('/products')
      .set('Authorization', `Bearer ${await signIn()}`)
      .expect(200);
  });
});
