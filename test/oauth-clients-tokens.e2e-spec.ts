import * as client from 'openid-client';
import request from 'supertest';
import { RefreshToken } from '../src/token/repositories/entities/refresh-token.entity.js';
import { basic, createIntegration } from './support/admin-api.js';
import { pkce, signInAt } from './support/authorization-code.js';
import { ADMIN_PASSWORD, passwordToken, startTestApp, type TestApp } from './support/test-app.js';

const TOKEN = '/api/oauth/token';
const REVOKE = '/api/oauth/revoke';
const CALLBACK = 'https://shop.example/oauth/callback';

/** A registered application as openid-client sees it, with its credentials for hand-made requests. */
interface App {
  id: string;
  secret?: string;
  config: client.Configuration;
}

/**
 * Registered applications' refresh tokens: bound to the client they were issued to, for refreshing and revoking, and
 * ended with the client. openid-client plays the application wherever a real one fits.
 */
describe('Refresh tokens of registered OAuth clients', () => {
  let t: TestApp;
  const form = (path: string, body: object, authorization?: string) => {
    const req = request(t.url).post(path).type('form');
    return (authorization ? req.set('Authorization', authorization) : req).send(body);
  };
  const refreshBody = (refreshToken: string, clientId: string) => ({
    grant_type: 'refresh_token',
    refresh_token: refreshToken,
    client_id: clientId,
  });
  const me = (accessToken: string) => request(t.url).get('/api/me').set('Authorization', `Bearer ${accessToken}`);
  const expectError = (res: request.Response, status: number, error: string) =>
    expect([res.status, res.body.error]).toEqual([status, error]);

  async function register(isPublic: boolean): Promise<App> {
    const res = await t.http
      .post('/api/oauth/clients')
      .send({ name: 'Shop', redirect_uris: [CALLBACK], public: isPublic, scopes: ['*'] });
    const { client_id: id, client_secret: secret } = res.body as { client_id: string; client_secret?: string };
    const auth = secret ? client.ClientSecretBasic(secret) : client.None();
    const config = await client.discovery(new URL(t.url), id, secret, auth, {
      algorithm: 'oauth2',
      execute: [client.allowInsecureRequests],
    });
    return { id, secret, config };
  }

  /** The authorization code flow with PKCE and state, as openid-client runs it, signed in as the administrator. */
  async function signIn(app: App) {
    const verifier = client.randomPKCECodeVerifier();
    const state = client.randomState();
    const target = client.buildAuthorizationUrl(app.config, {
      redirect_uri: CALLBACK,
      code_challenge: await client.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state,
      scope: 'product:read',
    });
    const back = await signInAt(t.url, target, 'admin', ADMIN_PASSWORD);
    const tokens = await client.authorizationCodeGrant(app.config, back, {
      pkceCodeVerifier: verifier,
      expectedState: state,
    });
    expect(tokens.refresh_token).toEqual(expect.any(String));
    return tokens as typeof tokens & { refresh_token: string };
  }

  beforeAll(async () => {
    t = await startTestApp({ TOKEN_FAILURES_PER_MINUTE: '1000', REFRESH_REUSE_GRACE: '0' });
  });
  afterAll(async () => t.close({ destroy: true }));

  it.each([
    ['a confidential client (client_secret_basic)', false],
    ['a public client (PKCE only)', true],
  ])('gives %s a refresh token it refreshes, rotated, for no more than was granted', async (_kind, isPublic) => {
    const app = await register(isPublic);
    const first = await signIn(app);
    const second = await client.refreshTokenGrant(app.config, first.refresh_token);
    expect(second).toMatchObject({ token_type: 'bearer', scope: 'product:read' });
    expect(second.refresh_token).not.toBe(first.refresh_token);
    expect((await me(second.access_token).expect(200)).body).toMatchObject({ permissions: ['product:read'] });
    const wider = form(TOKEN, { ...refreshBody(second.refresh_token!, app.id), client_secret: app.secret, scope: '*' });
    expectError(await wider, 400, 'invalid_scope');
    // Spent once: a second exchange is a reuse, which ends the sign-in (no grace here).
    await expect(client.refreshTokenGrant(app.config, first.refresh_token)).rejects.toMatchObject({
      error: 'invalid_grant',
    });
    await me(second.access_token).expect(401);
    const trail = await t.http.get('/api/audit-events?action=sign-in.revoked').expect(200);
    const events = (trail.body as { items: Array<{ client_id: string }> }).items;
    expect(events.filter((event) => event.client_id === app.id)).toEqual([
      expect.objectContaining({ details: { reason: 'refresh-token-reuse', sign_in: expect.any(String) } }),
    ]);
  });

  // Which credentials a client is refused for: token-revocation.service.spec.ts (the same client authentication).
  it('authenticates a confidential client with its secret in the body too, and refuses a wrong one', async () => {
    const app = await register(false);
    const { refresh_token } = await signIn(app);
    const wrong = await form(TOKEN, { ...refreshBody(refresh_token, app.id), client_secret: `${app.secret!}x` });
    expectError(wrong, 401, 'invalid_client');
    await form(TOKEN, { ...refreshBody(refresh_token, app.id), client_secret: app.secret }).expect(200);
  });

  it("refuses another client's refresh token as invalid_grant, leaving it good for its own client", async () => {
    const [mine, other] = [await register(true), await register(false)];
    const { refresh_token } = await signIn(mine);
    const admin = await passwordToken(t.url, 'admin', ADMIN_PASSWORD);
    const attempts = [
      form(TOKEN, refreshBody(refresh_token, 'administration')),
      form(TOKEN, { ...refreshBody(refresh_token, other.id), client_id: undefined }, basic(other.id, other.secret!)),
      form(TOKEN, refreshBody(admin.refresh_token!, mine.id)),
    ];
    for (const res of await Promise.all(attempts)) expectError(res, 400, 'invalid_grant');
    const integration = await createIntegration(t, ['product:read']);
    const byIntegration = form(
      TOKEN,
      refreshBody(refresh_token, integration.access_key_id),
      basic(integration.access_key_id, integration.secret_access_key),
    );
    expectError(await byIntegration, 400, 'unauthorized_client');
    await expect(client.refreshTokenGrant(mine.config, refresh_token)).resolves.toHaveProperty('access_token');
    await form(TOKEN, refreshBody(admin.refresh_token!, 'administration')).expect(200);
  });

  it('lets the owning client revoke its sign-in (RFC 7009); another client revoking it changes nothing', async () => {
    for (const app of [await register(false), await register(true)]) {
      const other = await register(false);
      const tokens = await signIn(app);
      await form(REVOKE, { token: tokens.refresh_token, client_id: other.id, client_secret: other.secret }).expect(200);
      await form(REVOKE, { token: tokens.refresh_token, client_id: 'administration' }).expect(200);
      await me(tokens.access_token).expect(200);
      const { refresh_token } = await client.refreshTokenGrant(app.config, tokens.refresh_token);

      await client.tokenRevocation(app.config, refresh_token!);
      await me(tokens.access_token).expect(401);
      await expect(client.refreshTokenGrant(app.config, refresh_token!)).rejects.toMatchObject({
        error: 'invalid_grant',
      });
    }
  });

  it('ends everything a client was issued when it is deleted: its access tokens at once, its refresh tokens', async () => {
    const [doomed, kept] = [await register(false), await register(true)];
    const sessions = [await signIn(doomed), await signIn(doomed)];
    const survivor = await signIn(kept);
    for (const { access_token } of [...sessions, survivor]) await me(access_token).expect(200);

    await t.http.delete(`/api/oauth/clients/${doomed.id}`).expect(204);

    for (const { access_token } of sessions) await me(access_token).expect(401);
    const rows = await t.dataSource.getRepository(RefreshToken).findBy({ clientId: doomed.id });
    expect(rows.length).toBeGreaterThanOrEqual(2);
    expect(rows.filter((row) => row.revokedAt === null)).toEqual([]);
    // The client itself is gone, so the token endpoint no longer knows it (RFC 6749 §5.2: invalid_client).
    const refresh = form(TOKEN, { ...refreshBody(sessions[0].refresh_token, doomed.id), client_secret: doomed.secret });
    expectError(await refresh, 401, 'invalid_client');
    await me(survivor.access_token).expect(200);
    await expect(client.refreshTokenGrant(kept.config, survivor.refresh_token)).resolves.toHaveProperty('access_token');
  });

  it('leaves nothing usable when a code is redeemed and a token refreshed while the client is being deleted', async () => {
    for (let round = 0; round < 4; round++) {
      const app = await register(true);
      const session = await signIn(app);
      const { verifier, challenge } = await pkce();
      const target = client.buildAuthorizationUrl(app.config, {
        redirect_uri: CALLBACK,
        code_challenge: challenge,
        code_challenge_method: 'S256',
      });
      const code = (await signInAt(t.url, target, 'admin', ADMIN_PASSWORD)).searchParams.get('code')!;
      const redeem = { grant_type: 'authorization_code', client_id: app.id, code, redirect_uri: CALLBACK };
      const [redeemed, refreshed] = await Promise.all([
        form(TOKEN, { ...redeem, code_verifier: verifier }),
        form(TOKEN, refreshBody(session.refresh_token, app.id)),
        t.http.delete(`/api/oauth/clients/${app.id}`).expect(204),
      ]);
      for (const res of [redeemed, refreshed]) {
        if (res.status === 200) await me((res.body as { access_token: string }).access_token).expect(401);
        else expect(res.body).toMatchObject({ error: expect.stringMatching(/^invalid_(grant|client)$/) });
      }
      // Every sign-in of the client is revoked: a row a concurrent exchange added may have escaped the UPDATE, never
      // its family's check (see RefreshTokensService).
      const rows = await t.dataSource.getRepository(RefreshToken).findBy({ clientId: app.id });
      const families = new Set(rows.map((row) => row.familyId));
      const revoked = new Set(rows.filter((row) => row.revokedAt !== null).map((row) => row.familyId));
      expect({ round, revoked: [...revoked].sort() }).toEqual({ round, revoked: [...families].sort() });
    }
  });

  it('keeps sign-ins standing when a secret is rotated: after the grace the refresh needs the new secret', async () => {
    const app = await register(false);
    const first = await signIn(app);
    const rotated = await t.http.post(`/api/oauth/clients/${app.id}/secret`).expect(200);
    const secret = (rotated.body as { client_secret: string }).client_secret;
    expect(rotated.body).toHaveProperty('previous_secret_expires_at');
    await me(first.access_token).expect(200);
    // Within the grace the old secret still works, as an integration's does.
    const tokens = await client.refreshTokenGrant(app.config, first.refresh_token);
    await t.http.delete(`/api/oauth/clients/${app.id}/previous-secret`).expect(200);
    // The old secret no longer authenticates the client: 401 invalid_client with a Basic challenge.
    await expect(client.refreshTokenGrant(app.config, tokens.refresh_token!)).rejects.toMatchObject({
      status: 401,
      cause: [expect.objectContaining({ scheme: 'basic' })],
    });
    const renewed = form(
      TOKEN,
      { ...refreshBody(tokens.refresh_token!, app.id), client_id: undefined },
      basic(app.id, secret),
    );
    await renewed.expect(200);
  });
});
