import request from 'supertest';
import { createIntegration } from './support/admin-api.js';
import { authorizeUrl, openAuthorize, pkce, submitConsent, submitSignIn } from './support/authorization-code.js';
import { expectProblem } from './support/fixtures.js';
import { CALLBACK, CLIENTS, consentFlow, TOKEN } from './support/oauth-clients.js';
import { ADMIN_PASSWORD, startTestApp, type TestApp } from './support/test-app.js';

/**
 * Registered applications get a consent step, a scope ceiling and a default scope, and only whoever holds a client's
 * ceiling may redirect, rotate or delete it: the red team's attack (a holder of oauth-client:write only registering
 * "the administration interface" and taking an administrator's `*` token) fails at every step.
 */
describe('OAuth consent, scope ceilings and grants', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ TOKEN_FAILURES_PER_MINUTE: '1000' });
  });
  afterAll(async () => t.close({ destroy: true }));

  const { bearer, userWith, register, authorize, signIn, redeem, allow } = consentFlow(() => t);

  async function eventsOf(action: string, targetId: string | number) {
    const res = await t.http
      .get('/api/audit-events')
      .query({ action, target_id: String(targetId) })
      .expect(200);
    return res.body.items as Array<{ client_id: string | null; actor: string }>;
  }

  it('refuses the red team: no * ceiling without *, no look-alike name, no touching a wider client', async () => {
    const registrar = await userWith(['oauth-client:read', 'oauth-client:write']);
    const body = { redirect_uris: ['https://evil.example/cb'], public: true };
    const star = await registrar.agent.post(CLIENTS).send({ ...body, name: 'Tools', scopes: ['*'] });
    expect(expectProblem(star, 403, 'privilege-escalation').missing_permissions).toEqual(['*']);
    const wider = await registrar.agent.post(CLIENTS).send({ ...body, name: 'Tools', scopes: ['user:write'] });
    expectProblem(wider, 403, 'privilege-escalation');
    expectProblem(await registrar.agent.post(CLIENTS).send({ ...body, name: 'Tools' }), 400);
    const unknown = await registrar.agent.post(CLIENTS).send({ ...body, name: 'Tools', scopes: ['nothing:read'] });
    expect(JSON.stringify(expectProblem(unknown, 400).errors)).toContain('scopes');
    // Which names read as the administration interface: client-names.spec.ts.
    const lookalike = await t.http.post(CLIENTS).send({ ...body, name: 'Admin UI', scopes: ['product:read'] });
    expect(expectProblem(lookalike, 400, 'validation-failed').errors).toEqual([
      { field: 'name', messages: [expect.stringContaining('administration')] },
    ]);
    const own = await registrar.agent
      .post(CLIENTS)
      .send({ ...body, name: 'Tools', scopes: ['oauth-client:read'], default_scopes: ['oauth-client:read'] })
      .expect(201);
    expect(own.body).toMatchObject({ scopes: ['oauth-client:read'], default_scopes: ['oauth-client:read'] });
    await registrar.agent.patch(`${CLIENTS}/${own.body.client_id}`).send({ name: 'Tools 2' }).expect(200);

    const administrators = (await register({ public: false, scopes: ['*'] })).client_id;
    const id = `${CLIENTS}/${administrators}`;
    const refusals = [
      await registrar.agent.patch(id).send({ redirect_uris: ['https://evil.example/cb'] }),
      await registrar.agent.patch(id).send({ name: 'Renamed' }),
      await registrar.agent.post(`${id}/secret`),
      await registrar.agent.delete(id),
    ];
    for (const res of refusals) expectProblem(res, 403, 'privilege-escalation');
    const unchanged = await t.http.get(id).expect(200);
    expect(unchanged.body).toMatchObject({ name: 'Shop', redirect_uris: [CALLBACK] });
  });

  it('gives a request without scope the default scope, and never more than the ceiling', async () => {
    const shop = await register({ scopes: ['product:read', 'product:write'], default_scopes: ['product:read'] });
    const { answer, cookie, verifier } = await signIn(shop.client_id);
    const tokens = await redeem(shop.client_id, await allow(answer, cookie), verifier).expect(200);
    expect(tokens.body.scope).toBe('product:read');
    await bearer(tokens.body.access_token as string)
      .get('/api/users')
      .expect(403);

    const outside = await signIn(shop.client_id, { scope: 'product:read user:write' });
    expect(outside.answer.status).toBe(303);
    expect(Object.fromEntries(outside.answer.location!.searchParams)).toMatchObject({
      error: 'invalid_scope',
      state: 'xyz',
    });
    expect(outside.answer.location!.searchParams.has('code')).toBe(false);
  });

  it('asks consent naming the application, its client_id, the redirect host and each permission in words', async () => {
    const shop = await register({ name: 'Shop front', scopes: ['product:read', 'product:write'] });
    const { page } = await authorize(shop.client_id);
    expect(page.html).toContain('to continue to Shop front.');
    expect(page.html).toContain(shop.client_id);
    expect(page.html).toContain('<strong>shop.example</strong>');
    expect(page.html).toContain('not its administration interface');

    const { answer, cookie, verifier } = await signIn(shop.client_id);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(answer.headers.get('content-security-policy')).not.toContain('script');
    expect(answer.headers.get('cache-control')).toBe('no-store');
    expect(answer.html).toContain('Allow Shop front?');
    expect(answer.html).toContain(shop.client_id);
    expect(answer.html).toContain('<strong>shop.example</strong>');
    expect(answer.html).toMatch(/Read products[^<]*<code>product:read<\/code>/);
    expect(answer.html).toMatch(/<code>product:write<\/code>/);
    expect(answer.html).not.toContain('<script');
    expect(answer.hidden.consent_token).toEqual(expect.any(String));
    expect(answer.hidden).not.toHaveProperty('password');

    // Another browser (no cookie), a forged token or no choice at all get nothing.
    expect((await submitConsent(t.url, answer, 'allow', '')).status).toBe(403);
    expect((await submitConsent(t.url, answer, 'allow', cookie, { consent_token: 'forged' })).status).toBe(403);
    expect((await submitConsent(t.url, answer, undefined, cookie)).status).toBe(400);

    const tokens = await redeem(shop.client_id, await allow(answer, cookie), verifier).expect(200);
    expect(tokens.body.scope).toBe('product:read product:write');
  });

  it('sends access_denied when the person denies, and issues no code', async () => {
    const shop = await register();
    const { answer, cookie } = await signIn(shop.client_id);
    const denied = await submitConsent(t.url, answer, 'deny', cookie);
    expect(denied.status).toBe(303);
    expect(Object.fromEntries(denied.location!.searchParams)).toMatchObject({
      error: 'access_denied',
      state: 'xyz',
    });
    expect(denied.location!.searchParams.has('code')).toBe(false);
    const listed = await t.http.get('/api/me/grants').query({ limit: 100 }).expect(200);
    expect(listed.body.items.map((grant: { client_id: string }) => grant.client_id)).not.toContain(shop.client_id);
    const [event] = await eventsOf('oauth-consent.deny', shop.client_id);
    expect(event).toMatchObject({ client_id: shop.client_id, actor: 'user:1' });
  });

  it('remembers a consent, asks again for more, and never asks for the administration interface', async () => {
    const shop = await register({ scopes: ['product:read', 'product:write'], default_scopes: ['product:read'] });
    const first = await signIn(shop.client_id);
    await allow(first.answer, first.cookie);
    const again = await signIn(shop.client_id);
    expect(again.answer.status).toBe(303);
    expect(again.answer.location!.searchParams.get('code')).toEqual(expect.any(String));
    const more = await signIn(shop.client_id, { scope: 'product:write' });
    expect(more.answer.status).toBe(200);
    expect(more.answer.html).toContain('<code>product:write</code>');

    const { verifier, challenge } = await pkce();
    const target = authorizeUrl(t.url, { code_challenge: challenge, code_challenge_method: 'S256' });
    const page = await openAuthorize(target);
    expect(page.html).toContain('administration');
    const admin = await submitSignIn(t.url, page, { username: 'admin', password: ADMIN_PASSWORD });
    expect(admin.status).toBe(303);
    const tokens = await redeem('administration', admin.location!, verifier, `${t.url}/admin/callback`).expect(200);
    expect(tokens.body.scope).toBe('*');
  });

  it('lists grants at /api/me/grants; revoking one ends its sign-ins and asks consent again', async () => {
    const shop = await register({ name: 'Grant shop', scopes: ['product:read'] });
    const user = await userWith(['product:read', 'article:read']);
    const first = await signIn(shop.client_id, {}, user.name);
    const tokens = await redeem(shop.client_id, await allow(first.answer, first.cookie), first.verifier).expect(200);
    const access = tokens.body.access_token as string;
    await bearer(access).get('/api/me').expect(200);

    const listed = await user.agent.get('/api/me/grants').expect(200);
    expect(listed.body).toEqual({
      items: [
        {
          client_id: shop.client_id,
          client_name: 'Grant shop',
          redirect_host: 'shop.example',
          scopes: ['product:read'],
          granted_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        },
      ],
      total: 1,
      limit: 20,
      offset: 0,
    });
    const [consent] = await eventsOf('oauth-consent.allow', shop.client_id);
    expect(consent).toMatchObject({ client_id: shop.client_id });
    const userId = Number((await bearer(access).get('/api/me')).body.id);
    const signIns = await eventsOf('sign-in.succeeded', userId);
    expect(signIns.map((event) => event.client_id)).toContain(shop.client_id);
    expect(signIns.map((event) => event.client_id)).toContain('administration');

    await user.agent.delete(`/api/me/grants/${shop.client_id}`).expect(204);
    expectProblem(await user.agent.delete(`/api/me/grants/${shop.client_id}`), 404, 'grant-not-found');
    expect((await user.agent.get('/api/me/grants').expect(200)).body.items).toEqual([]);
    await bearer(access).get('/api/me').expect(401);
    const refreshed = await request(t.url)
      .post(TOKEN)
      .type('form')
      .send({ grant_type: 'refresh_token', client_id: shop.client_id, refresh_token: tokens.body.refresh_token });
    expect([refreshed.status, refreshed.body.error]).toEqual([400, 'invalid_grant']);
    const again = await signIn(shop.client_id, {}, user.name);
    expect(again.answer.status).toBe(200);
    expect(again.answer.hidden.consent_token).toEqual(expect.any(String));
  });

  it('answers an integration an empty list and 404, as it has no grants', async () => {
    const integration = await createIntegration(t, ['product:read']);
    const issued = await request(t.url)
      .post(TOKEN)
      .type('form')
      .send({
        grant_type: 'client_credentials',
        client_id: integration.access_key_id,
        client_secret: integration.secret_access_key,
      })
      .expect(200);
    const agent = bearer(issued.body.access_token as string);
    expect((await agent.get('/api/me/grants').expect(200)).body).toEqual({ items: [], total: 0, limit: 20, offset: 0 });
    expectProblem(await agent.delete('/api/me/grants/app_Xq3bV0m7hZ1kLw9pRt2sYa'), 404, 'grant-not-found');
  });

  it('records failed sign-ins at the client they were made at', async () => {
    const shop = await register();
    const { page } = await authorize(shop.client_id);
    const wrong = await submitSignIn(t.url, page, { username: 'admin', password: 'not the password' });
    expect(wrong.status).toBe(401);
    const [failed] = await eventsOf('sign-in.failed', 1);
    expect(failed.client_id).toBe(shop.client_id);
  });
});
