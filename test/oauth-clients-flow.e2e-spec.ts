import * as client from 'openid-client';
import request from 'supertest';
import { basic } from './support/admin-api.js';
import { openAuthorize, pkce, signInAt } from './support/authorization-code.js';
import { ADMIN_PASSWORD, startTestApp, type TestApp } from './support/test-app.js';

const TOKEN = '/api/oauth/token';
const CALLBACK = 'https://shop.example/oauth/callback';

interface Registered {
  client_id: string;
  client_secret?: string;
}

describe('Registered OAuth clients in the authorization code flow', () => {
  let t: TestApp;
  const token = (body: object, authorization?: string) => {
    const req = request(t.url).post(TOKEN).type('form');
    return (authorization ? req.set('Authorization', authorization) : req).send(body);
  };
  const me = (accessToken: string) => request(t.url).get('/api/me').set('Authorization', `Bearer ${accessToken}`);
  const register = async (isPublic: boolean, redirect = CALLBACK): Promise<Registered> =>
    (
      await t.http
        .post('/api/oauth/clients')
        .send({ name: 'Shop', redirect_uris: [redirect], public: isPublic, scopes: ['*'] })
    ).body as Registered;

  /** A code for `registered` as `username`, and its verifier. */
  async function codeFor(registered: Registered, username = 'admin', password = ADMIN_PASSWORD, scope?: string) {
    const { verifier, challenge } = await pkce();
    const target = new URL('/api/oauth/authorize', t.url);
    const params = { response_type: 'code', client_id: registered.client_id, redirect_uri: CALLBACK };
    for (const [name, value] of Object.entries({ ...params, code_challenge: challenge, code_challenge_method: 'S256' }))
      target.searchParams.set(name, value);
    if (scope) target.searchParams.set('scope', scope);
    const back = await signInAt(t.url, target, username, password);
    return { code: back.searchParams.get('code')!, verifier };
  }
  const redeem = (registered: Registered, code: string, verifier: string, extra: Record<string, string> = {}) => ({
    grant_type: 'authorization_code',
    client_id: registered.client_id,
    code,
    redirect_uri: CALLBACK,
    code_verifier: verifier,
    ...extra,
  });

  beforeAll(async () => {
    t = await startTestApp({ TOKEN_FAILURES_PER_MINUTE: '1000' });
  });
  afterAll(async () => t.close({ destroy: true }));

  async function openidFlow(config: client.Configuration, username: string, password: string, scope?: string) {
    const verifier = client.randomPKCECodeVerifier();
    const state = client.randomState();
    const target = client.buildAuthorizationUrl(config, {
      redirect_uri: CALLBACK,
      code_challenge: await client.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state,
      ...(scope ? { scope } : {}),
    });
    const page = await openAuthorize(target);
    expect(page.html).toContain('to continue to Shop.');
    const back = await signInAt(t.url, target, username, password);
    return client.authorizationCodeGrant(config, back, { pkceCodeVerifier: verifier, expectedState: state });
  }

  it('lets a confidential client sign a person in with openid-client (Basic), for what that person holds', async () => {
    const registered = await register(false);
    const config = await client.discovery(
      new URL(t.url),
      registered.client_id,
      registered.client_secret,
      client.ClientSecretBasic(registered.client_secret),
      { algorithm: 'oauth2', execute: [client.allowInsecureRequests] },
    );
    const tokens = await openidFlow(config, 'admin', ADMIN_PASSWORD, 'product:read');
    expect(tokens).toMatchObject({ token_type: 'bearer', scope: 'product:read' });
    expect(tokens.refresh_token).toEqual(expect.any(String));
    const account = await me(tokens.access_token).expect(200);
    expect(account.body).toMatchObject({ name: 'admin', permissions: ['product:read'] });

    // An editor signing in gets no more than their role grants, whatever the application asks.
    await t.http.post('/api/roles').send({ name: 'shop-editor', permissions: ['product:read', 'product:write'] });
    await t.http.post('/api/users').send({ username: 'editor', password: 'editor password long', role: 'shop-editor' });
    const editors = await openidFlow(config, 'editor', 'editor password long');
    expect(editors.scope?.split(' ').sort()).toEqual(['product:read', 'product:write']);
    await request(t.url).get('/api/users').set('Authorization', `Bearer ${editors.access_token}`).expect(403);
  });

  // Which credentials a client is refused for: token-revocation.service.spec.ts (the same client authentication).
  it('takes the secret in the body too, and refuses a confidential client with a wrong one', async () => {
    const registered = await register(false);
    const post = await codeFor(registered);
    const ok = await token(redeem(registered, post.code, post.verifier, { client_secret: registered.client_secret! }));
    expect(ok.status).toBe(200);
    const wrong = await codeFor(registered);
    const badBasic = await token(
      { ...redeem(registered, wrong.code, wrong.verifier), client_id: undefined },
      basic(registered.client_id, `${registered.client_secret!}x`),
    );
    expect([badBasic.status, badBasic.body.error]).toEqual([401, 'invalid_client']);
    expect(badBasic.headers['www-authenticate']).toMatch(/^Basic/);
  });

  it('lets a public client sign in with PKCE alone, and checks its verifier', async () => {
    const registered = await register(true);
    const config = await client.discovery(new URL(t.url), registered.client_id, undefined, client.None(), {
      algorithm: 'oauth2',
      execute: [client.allowInsecureRequests],
    });
    const tokens = await openidFlow(config, 'admin', ADMIN_PASSWORD);
    await me(tokens.access_token).expect(200);
    // PKCE is checked for public clients too: a wrong verifier spends the code for nothing.
    const { verifier } = await pkce();
    const other = await codeFor(registered);
    const wrongVerifier = await token(redeem(registered, other.code, verifier));
    expect([wrongVerifier.status, wrongVerifier.body.error]).toEqual([400, 'invalid_grant']);
  });

  it("refuses another client's code with invalid_grant, and a code of a deleted client", async () => {
    const [first, second] = [await register(true), await register(false)];
    const { code, verifier } = await codeFor(first);
    const stolen = await token(
      { ...redeem(second, code, verifier), client_id: undefined },
      basic(second.client_id, second.client_secret!),
    );
    expect([stolen.status, stolen.body.error]).toEqual([400, 'invalid_grant']);
    const administration = await token({ ...redeem(first, code, verifier), client_id: 'administration' });
    expect([administration.status, administration.body.error]).toEqual([400, 'invalid_grant']);

    const unused = await codeFor(second);
    await t.http.delete(`/api/oauth/clients/${second.client_id}`).expect(204);
    const after = await token(
      { ...redeem(second, unused.code, unused.verifier), client_id: undefined },
      basic(second.client_id, second.client_secret!),
    );
    expect([after.status, after.body.error]).toEqual([401, 'invalid_client']);
    const gone = await openAuthorize(new URL(`/api/oauth/authorize?client_id=${second.client_id}`, t.url));
    expect(gone.status).toBe(400);
  });

  // The comparison itself (by exact string) is request-checks.spec.ts: here, a registered client's URIs are the ones.
  it('sends the browser only to a registered redirect URI', async () => {
    const registered = await register(true);
    const { challenge } = await pkce();
    const target = new URL('/api/oauth/authorize', t.url);
    for (const [name, value] of Object.entries({
      response_type: 'code',
      client_id: registered.client_id,
      redirect_uri: `${CALLBACK}/`,
      code_challenge: challenge,
      code_challenge_method: 'S256',
    }))
      target.searchParams.set(name, value);
    const page = await openAuthorize(target);
    expect({ status: page.status, location: page.location }).toEqual({ status: 400, location: undefined });
  });

  it('ends the old secret when the grace of a rotation is ended', async () => {
    const registered = await register(false);
    const rotated = (await t.http.post(`/api/oauth/clients/${registered.client_id}/secret`).expect(200)).body;
    await t.http.delete(`/api/oauth/clients/${registered.client_id}/previous-secret`).expect(200);
    const old = await codeFor(registered);
    const byOld = await token(
      { ...redeem(registered, old.code, old.verifier), client_id: undefined },
      basic(registered.client_id, registered.client_secret!),
    );
    expect(byOld.body.error).toBe('invalid_client');
    const fresh = await codeFor(registered);
    await token(
      { ...redeem(registered, fresh.code, fresh.verifier), client_id: undefined },
      basic(registered.client_id, rotated.client_secret as string),
    ).expect(200);
  });
});
