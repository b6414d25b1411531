import { jest } from '@jest/globals';
import request from 'supertest';
import { Clock } from '@file-fields/nest';
import { basic, createIntegration, type CreatedIntegration } from './support/admin-api.js';
import { expectProblem } from './support/fixtures.js';
import { passwordToken, startTestApp, ADMIN_PASSWORD, type TestApp, type TokenBody } from './support/test-app.js';

const TOKEN = '/api/oauth/token';
const REVOKE = '/api/oauth/revoke';

/** The sign-in (`sid`) an access token belongs to. */
const sidOf = (accessToken: string): string =>
  (JSON.parse(Buffer.from(accessToken.split('.')[1], 'base64url').toString('utf8')) as { sid: string }).sid;

describe('Token revocation (RFC 7009) and the refresh reuse grace', () => {
  let t: TestApp;
  let reader: CreatedIntegration;
  const api = () => request(t.url);
  const signIn = () => passwordToken(t.url, 'admin', ADMIN_PASSWORD);
  const refresh = (token: string) =>
    api().post(TOKEN).send({ grant_type: 'refresh_token', client_id: 'administration', refresh_token: token });
  const refreshed = async (token: string): Promise<TokenBody> => (await refresh(token).expect(200)).body as TokenBody;
  /** The administration interface signing out: a form, as RFC 7009 describes it. */
  const revoke = (token: string, hint?: string) =>
    api()
      .post(REVOKE)
      .type('form')
      .send({ token, client_id: 'administration', ...(hint ? { token_type_hint: hint } : {}) });
  const getProducts = (accessToken: string) => api().get('/products').set('Authorization', `Bearer ${accessToken}`);
  const expectRevoked = (res: request.Response) => {
    expect(res.status).toBe(200);
    expect(res.text).toBe('');
    expect(res.headers['cache-control']).toBe('no-store');
  };
  const expectOAuthError = (res: request.Response, status: number, error: string) => {
    expect(res.status).toBe(status);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.body).toEqual({ error, error_description: expect.any(String) });
  };
  /** The `sign-in.revoked` audit event the request that got this response caused. */
  const revokedEvent = async (res: request.Response) => {
    const trail = await t.http.get('/api/audit-events?action=sign-in.revoked').expect(200);
    const items = (trail.body as { items: Array<Record<string, unknown>> }).items;
    return items.find((item) => item.request_id === res.headers['x-request-id']);
  };
  const expectRefreshRefused = async (token: string) => expectOAuthError(await refresh(token), 400, 'invalid_grant');

  beforeAll(async () => {
    // Every request here comes from 127.0.0.1: lift the per-IP failure limit. The reuse grace is the default, 30 s.
    t = await startTestApp({ TOKEN_FAILURES_PER_MINUTE: '1000' });
    reader = await createIntegration(t, ['product:read']);
  });
  afterEach(() => jest.restoreAllMocks());
  afterAll(async () => t.close({ destroy: true }));

  describe('POST /api/oauth/revoke', () => {
    it("revokes a refresh token's sign-in: its refresh tokens fail with invalid_grant, its access tokens end", async () => {
      const first = await signIn();
      const second = await refreshed(first.refresh_token!);
      const third = await refreshed(second.refresh_token!);
      const elsewhere = await signIn();

      // An older token of the chain ends the sign-in as well as the newest.
      expectRevoked(await revoke(second.refresh_token!, 'refresh_token'));
      for (const token of [first, second, third]) await expectRefreshRefused(token.refresh_token!);
      expectProblem(await getProducts(third.access_token), 401, 'invalid-token');
      // Another sign-in of the same user goes on.
      await getProducts(elsewhere.access_token).expect(200);
      await refresh(elsewhere.refresh_token!).expect(200);
    });

    it('takes JSON as well as a form, and records the sign-out in the audit trail without the token', async () => {
      const session = await signIn();
      const res = await api().post(REVOKE).send({ token: session.refresh_token, client_id: 'administration' });
      expectRevoked(res);
      await expectRefreshRefused(session.refresh_token!);
      expect(await revokedEvent(res)).toMatchObject({
        actor: expect.stringMatching(/^user:\d+$/),
        client_id: 'administration',
        target_type: 'user',
        outcome: 'success',
        details: { reason: 'revocation-request', sign_in: sidOf(session.access_token) },
      });
      const trail = await t.http.get('/api/audit-events?action=sign-in.revoked').expect(200);
      expect(JSON.stringify(trail.body)).not.toContain(session.refresh_token);
    });

    it('answers 200 for an access token and changes nothing', async () => {
      const session = await signIn();
      expectRevoked(await revoke(session.access_token, 'access_token'));
      expectRevoked(await revoke(session.access_token));
      await getProducts(session.access_token).expect(200);
      await refresh(session.refresh_token!).expect(200);
    });

    it('answers 200 for an unknown or already revoked token, whatever the hint says', async () => {
      expectRevoked(await revoke('not-a-token'));
      expectRevoked(await revoke('not-a-token', 'no_such_type'));
      const session = await signIn();
      expectRevoked(await revoke(session.refresh_token!, 'access_token'));
      expectRevoked(await revoke(session.refresh_token!));
      await expectRefreshRefused(session.refresh_token!);
    });

    it("never revokes another client's token: an integration's request changes nothing", async () => {
      const session = await signIn();
      expectRevoked(
        await api()
          .post(REVOKE)
          .set('Authorization', basic(reader.access_key_id, reader.secret_access_key))
          .type('form')
          .send({ token: session.refresh_token }),
      );
      expectRevoked(
        await api().post(REVOKE).send({
          token: session.refresh_token,
          client_id: reader.access_key_id,
          client_secret: reader.secret_access_key,
        }),
      );
      await refresh(session.refresh_token!).expect(200);
    });

    // Which parameters are missing or malformed: token-request.spec.ts. Here, bodies only HTTP can send.
    it('400 invalid_request for a malformed body', async () => {
      expectOAuthError(
        await api().post(REVOKE).set('Content-Type', 'application/json').send('{"token": '),
        400,
        'invalid_request',
      );
      expectOAuthError(
        await api().post(REVOKE).type('form').send('client_id=administration&token=a&token=b'),
        400,
        'invalid_request',
      );
    });

    it('401 invalid_client for a failed client authentication, with a challenge when Basic was used', async () => {
      const session = await signIn();
      const wrongPost = await api()
        .post(REVOKE)
        .send({ token: session.refresh_token, client_id: reader.access_key_id, client_secret: 'wrong' });
      expectOAuthError(wrongPost, 401, 'invalid_client');
      expect(wrongPost.headers['www-authenticate']).toBeUndefined();
      const wrongBasic = await api()
        .post(REVOKE)
        .set('Authorization', basic(reader.access_key_id, 'wrong'))
        .send({ token: session.refresh_token });
      expectOAuthError(wrongBasic, 401, 'invalid_client');
      expect(wrongBasic.headers['www-authenticate']).toMatch(/^Basic realm=/);
      // The other failed authentications: token-revocation.service.spec.ts.
      await refresh(session.refresh_token!).expect(200);
    });

    it('is listed in the RFC 8414 metadata', async () => {
      const res = await api().get('/.well-known/oauth-authorization-server').expect(200);
      expect(res.body).toMatchObject({
        revocation_endpoint: `${t.url}${REVOKE}`,
        revocation_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
      });
    });
  });

  describe('REFRESH_REUSE_GRACE', () => {
    /** Moves the service's clock this far ahead. */
    const later = (ms: number) => {
      const clock = t.app.get(Clock);
      const real = clock.nowMs.bind(clock);
      jest.spyOn(clock, 'nowMs').mockImplementation(() => real() + ms);
    };

    it('answers a just-rotated token presented again with new tokens of the same sign-in; all stay valid', async () => {
      const session = await signIn();
      const tabA = await refreshed(session.refresh_token!);
      const tabB = await refreshed(session.refresh_token!);
      expect(tabB.refresh_token).not.toBe(tabA.refresh_token);
      expect(sidOf(tabB.access_token)).toBe(sidOf(session.access_token));
      await getProducts(tabA.access_token).expect(200);
      await getProducts(tabB.access_token).expect(200);
      await refresh(tabA.refresh_token!).expect(200);
      await refresh(tabB.refresh_token!).expect(200);
    });

    it('gives every tab presenting the same token at the same moment new tokens of the sign-in', async () => {
      // Several rounds, so that on PostgreSQL some exchanges really do meet at the compare-and-swap.
      for (let round = 0; round < 5; round++) {
        const session = await signIn();
        const tabs = await Promise.all([1, 2, 3].map(() => refresh(session.refresh_token!)));
        expect(tabs.map((tab) => tab.status)).toEqual([200, 200, 200]);
        const issued = tabs.map((tab) => tab.body as TokenBody);
        expect(new Set(issued.map((body) => body.refresh_token)).size).toBe(3);
        expect(new Set(issued.map((body) => sidOf(body.access_token)))).toEqual(new Set([sidOf(session.access_token)]));
        for (const body of issued) await refresh(body.refresh_token!).expect(200);
      }
    });

    it('revokes the sign-in when the rotated token comes back after the grace', async () => {
      const session = await signIn();
      const next = await refreshed(session.refresh_token!);
      later(31_000);
      const reuse = await refresh(session.refresh_token!);
      expectOAuthError(reuse, 400, 'invalid_grant');
      await expectRefreshRefused(next.refresh_token!);
      expectProblem(await getProducts(next.access_token), 401, 'invalid-token');
      expect(await revokedEvent(reuse)).toMatchObject({
        details: { reason: 'refresh-token-reuse', sign_in: sidOf(session.access_token) },
      });
    });

    it('counts the grace from the first rotation: presenting the token within it does not extend it', async () => {
      const session = await signIn();
      await refreshed(session.refresh_token!);
      later(20_000);
      await refreshed(session.refresh_token!);
      jest.restoreAllMocks();
      later(31_000);
      await expectRefreshRefused(session.refresh_token!);
    });

    it('never revives a signed-out sign-in', async () => {
      const session = await signIn();
      const next = await refreshed(session.refresh_token!);
      expectRevoked(await revoke(next.refresh_token!));
      await expectRefreshRefused(session.refresh_token!);
      await expectRefreshRefused(next.refresh_token!);
      expectProblem(await getProducts(session.access_token), 401, 'invalid-token');
    });
  });
});
