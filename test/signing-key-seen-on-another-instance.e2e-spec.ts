import { jest } from '@jest/globals';
import request from 'supertest';
import { Clock } from '@file-fields/nest';
import { SigningKeysService } from '../src/token/issuing/signing-keys.service.js';
import {
  ADMIN_PASSWORD,
  createTestDatabase,
  passwordToken,
  startApp,
  type TestApp,
  type TestDatabase,
} from './support/test-app.js';

const HOUR = 3_600_000;
const ISSUER = 'https://service.test';

const kidOf = (token: string) =>
  (JSON.parse(Buffer.from(token.split('.')[0] ?? '', 'base64url').toString()) as { kid: string }).kid;

/*
 * Two instances on one database, behind one issuer. B reloads the signing keys only every minute; a token signed with
 * a key A added since must not be refused meanwhile: B reloads the keys when it meets an unknown kid.
 */
describe('A signing key added on another instance is loaded on its first token', () => {
  let database: TestDatabase;
  let a: TestApp;
  let b: TestApp;

  beforeAll(async () => {
    database = await createTestDatabase();
    a = await startApp(database, { OAUTH_ISSUER: ISSUER });
    b = await startApp(database, { OAUTH_ISSUER: ISSUER });
  });
  afterEach(() => jest.restoreAllMocks());
  afterAll(async () => {
    await b?.close();
    await a?.close({ destroy: true });
  });

  it("is loaded by B on the first token it signed, which B accepts at once (before B's next reload)", async () => {
    const before = b.app.get(SigningKeysService).jwks().keys.length;
    const rotated = await a.app.get(SigningKeysService).rotate();
    expect(rotated).toBeDefined();
    // B has not reloaded since it started: it does not know the new key yet.
    expect(b.app.get(SigningKeysService).find(rotated!.kid)).toBeUndefined();

    // Both are past the new key's activation, B without a reload since (as if its reloads had failed): A signs with
    // the new key.
    const later = Date.now() + HOUR + 60_000;
    for (const t of [a, b]) jest.spyOn(t.app.get(Clock), 'nowMs').mockReturnValue(later);
    const { access_token } = await passwordToken(a.url, 'admin', ADMIN_PASSWORD);
    expect(kidOf(access_token)).toBe(rotated!.kid);

    await request(b.url).get('/products').set('Authorization', `Bearer ${access_token}`).expect(200);
    expect(b.app.get(SigningKeysService).jwks().keys.length).toBe(before + 1);
  });

  it('still refuses a token whose kid no instance has', async () => {
    const { access_token } = await passwordToken(b.url, 'admin', ADMIN_PASSWORD);
    const [header, ...rest] = access_token.split('.');
    const forged = { ...(JSON.parse(Buffer.from(header, 'base64url').toString()) as object), kid: 'no-such-key' };
    const token = [Buffer.from(JSON.stringify(forged)).toString('base64url'), ...rest].join('.');
    const res = await request(b.url).get('/products').set('Authorization', `Bearer ${token}`).expect(401);
    expect(res.headers['www-authenticate']).toMatch(/invalid_token/);
  });
});
