import request from 'supertest';
import { authorizeUrl, openAuthorize, pkce, submitConsent, submitSignIn } from './support/authorization-code.js';
import { expectProblem } from './support/fixtures.js';
import { CALLBACK, CLIENTS, consentFlow, TOKEN } from './support/oauth-clients.js';
import { ADMIN_PASSWORD, startTestApp, type TestApp } from './support/test-app.js';

/**
 * The red team against consent, scope ceilings and grants: consent tokens carried to another request, client or
 * scope; refreshes after permissions shrink; clients widened by whoever edits them; the built-in client through the
 * API; other grants; look-alike names; remembered grants across clients and redirect hosts; odd input.
 */
describe('OAuth consent and client ceilings under attack', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ TOKEN_FAILURES_PER_MINUTE: '1000' });
  });
  afterAll(async () => t.close({ destroy: true }));

  const { bearer, userWith, register, authorize, signIn, redeem, allow } = consentFlow(() => t);

  const refresh = (clientId: string, refreshToken: string, scope?: string) =>
    request(t.url)
      .post(TOKEN)
      .type('form')
      .send({
        grant_type: 'refresh_token',
        client_id: clientId,
        refresh_token: refreshToken,
        ...(scope ? { scope } : {}),
      });

  it('accepts a consent token only for the request, browser and scope it was shown for', async () => {
    const shop = await register({ scopes: ['product:read', 'product:write'] });
    const other = await register({ name: 'Other shop', scopes: ['product:read', 'product:write'] });
    const { answer, cookie } = await signIn(shop.client_id, { scope: 'product:read' });
    expect(answer.hidden.consent_token).toEqual(expect.any(String));
    const token = answer.hidden.consent_token;

    // Posted with the sign-in form of another client, a wider scope, another state or PKCE challenge: refused.
    const otherPage = (await authorize(other.client_id, {}, cookie)).page;
    const replays = [
      await submitConsent(t.url, otherPage, 'allow', cookie, { consent_token: token }),
      await submitConsent(t.url, answer, 'allow', cookie, { scope: 'product:read product:write' }),
      await submitConsent(t.url, answer, 'allow', cookie, { scope: undefined }),
      await submitConsent(t.url, answer, 'allow', cookie, { state: 'other' }),
      await submitConsent(t.url, answer, 'allow', cookie, { code_challenge: (await pkce()).challenge }),
      // The sign-in form's own CSRF token is no consent token.
      await submitConsent(t.url, answer, 'allow', cookie, { consent_token: otherPage.hidden.csrf_token }),
    ];
    for (const replay of replays) {
      expect(replay.status).toBe(403);
      expect(replay.location).toBeUndefined();
    }
    // Another browser's cookie, with a well-formed value of its own: refused.
    const foreign = (await authorize(shop.client_id)).page.cookie!;
    expect(foreign).not.toBe(cookie);
    expect((await submitConsent(t.url, answer, 'allow', foreign)).status).toBe(403);
    const listed = await t.http.get('/api/me/grants').query({ limit: 100 }).expect(200);
    const ids = listed.body.items.map((grant: { client_id: string }) => grant.client_id);
    expect(ids).not.toContain(other.client_id);
    expect(ids).not.toContain(shop.client_id);
  });

  it('never lets a remembered grant to one client skip consent at another', async () => {
    const first = await register({ name: 'First', scopes: ['product:read'] });
    const second = await register({ name: 'Second', scopes: ['product:read'] });
    const given = await signIn(first.client_id);
    await allow(given.answer, given.cookie);
    expect((await signIn(first.client_id)).answer.status).toBe(303);
    const elsewhere = await signIn(second.client_id);
    expect(elsewhere.answer.status).toBe(200);
    expect(elsewhere.answer.hidden.consent_token).toEqual(expect.any(String));
  });

  it('narrows a refresh after the role or the ceiling shrinks, and never widens it beyond the consent', async () => {
    const shop = await register({ scopes: ['product:read', 'product:write', 'article:read', 'article:write'] });
    const user = await userWith(['product:read', 'product:write', 'article:read']);
    const { answer, cookie, verifier } = await signIn(shop.client_id, {}, user.name);
    const tokens = await redeem(shop.client_id, await allow(answer, cookie), verifier).expect(200);
    expect(tokens.body.scope).toBe('product:read product:write article:read');

    await t.http
      .patch(`/api/roles/${user.roleId}`)
      .send({ permissions: ['product:read', 'article:read'] })
      .expect(200);
    const afterRole = await refresh(shop.client_id, tokens.body.refresh_token as string).expect(200);
    expect(afterRole.body.scope).toBe('product:read article:read');

    await t.http
      .patch(`${CLIENTS}/${shop.client_id}`)
      .send({ scopes: ['product:read', 'article:write'] })
      .expect(200);
    const afterCeiling = await refresh(shop.client_id, afterRole.body.refresh_token as string).expect(200);
    expect(afterCeiling.body.scope).toBe('product:read');

    // The role now grants article:write, inside the ceiling: never consented, so no refresh carries it.
    await t.http
      .patch(`/api/roles/${user.roleId}`)
      .send({ permissions: ['product:read', 'article:read', 'article:write'] })
      .expect(200);
    const wider = await refresh(shop.client_id, afterCeiling.body.refresh_token as string, 'article:write');
    expect([wider.status, wider.body.error]).toEqual([400, 'invalid_scope']);
    const plain = await refresh(shop.client_id, afterCeiling.body.refresh_token as string).expect(200);
    expect(plain.body.scope).toBe('product:read');
  });

  it('lets nobody widen a client beyond what they hold, nor put the default scope outside the ceiling', async () => {
    const holder = await userWith(['oauth-client:read', 'oauth-client:write', 'product:read', 'product:write']);
    const own = await holder.agent
      .post(CLIENTS)
      .send({ name: 'Mine', redirect_uris: [CALLBACK], public: true, scopes: ['product:read'] })
      .expect(201);
    const id = `${CLIENTS}/${own.body.client_id}`;
    expectProblem(await holder.agent.patch(id).send({ scopes: ['product:read', 'user:write'] }), 403);
    expectProblem(await holder.agent.patch(id).send({ scopes: ['*'] }), 403, 'privilege-escalation');
    expectProblem(await holder.agent.patch(id).send({ default_scopes: ['product:write'] }), 400, 'validation-failed');
    expectProblem(await holder.agent.patch(id).send({ default_scopes: ['*'] }), 400, 'validation-failed');
    expectProblem(
      await holder.agent.patch(id).send({ scopes: ['product:write'], default_scopes: ['product:read'] }),
      400,
      'validation-failed',
    );
    const unchanged = await holder.agent.get(id).expect(200);
    expect(unchanged.body).toMatchObject({ scopes: ['product:read'], default_scopes: ['product:read'] });
  });

  it('keeps the built-in administration client out of the clients API', async () => {
    const id = `${CLIENTS}/administration`;
    expectProblem(await t.http.get(id), 404, 'oauth-client-not-found');
    expectProblem(await t.http.patch(id).send({ name: 'Evil', redirect_uris: ['https://evil.example/cb'] }), 404);
    expectProblem(await t.http.post(`${id}/secret`), 404);
    expectProblem(await t.http.delete(`${id}/previous-secret`), 404);
    expectProblem(await t.http.delete(id), 404);
    const { challenge } = await pkce();
    const page = await openAuthorize(authorizeUrl(t.url, { code_challenge: challenge, code_challenge_method: 'S256' }));
    expect(page.status).toBe(200);
    expect(page.html).toContain("is this service's own");
  });

  it('lets no registered client use the password or client_credentials grant', async () => {
    const confidential = await register({ public: false, scopes: ['product:read'] });
    const secret = confidential.client_secret!;
    const password = await request(t.url).post(TOKEN).type('form').send({
      grant_type: 'password',
      client_id: confidential.client_id,
      client_secret: secret,
      username: 'admin',
      password: ADMIN_PASSWORD,
    });
    expect([password.status, password.body.error]).toEqual([400, 'unauthorized_client']);
    const publicClient = await register();
    const asPublic = await request(t.url).post(TOKEN).type('form').send({
      grant_type: 'password',
      client_id: publicClient.client_id,
      username: 'admin',
      password: ADMIN_PASSWORD,
    });
    expect(asPublic.status).toBe(401);
    expect(asPublic.body.access_token).toBeUndefined();
    const credentials = await request(t.url)
      .post(TOKEN)
      .type('form')
      .send({ grant_type: 'client_credentials', client_id: confidential.client_id, client_secret: secret });
    expect([credentials.status, credentials.body.error]).toEqual([401, 'invalid_client']);
  });

  it('escapes the client name on the sign-in and consent pages, under a policy without script', async () => {
    const name = `"><img src=x onerror=alert(1)><script>alert('x')</script>&amp;`;
    const shop = await register({ name });
    const { page } = await authorize(shop.client_id);
    const { answer } = await signIn(shop.client_id);
    for (const html of [page.html, answer.html]) {
      expect(html).not.toContain('<img src=x');
      expect(html).not.toContain('<script');
      expect(html).toContain('&quot;&gt;&lt;img src=x onerror=alert(1)&gt;&lt;script&gt;alert(&#39;x&#39;)');
      expect(html).toContain('&amp;amp;');
    }
    const policy = answer.headers.get('content-security-policy')!;
    expect(policy).toContain("default-src 'none'");
    expect(policy).not.toMatch(/script-src|unsafe-inline/);
    expect(answer.headers.get('x-frame-options')).toBe('DENY');
  });

  it('shows on the consent page the host the code goes to', async () => {
    const uris = ['https://shop.example/oauth/callback', 'https://sh\u00f6p.example/cb', 'https://app.example:8443/cb'];
    for (const [uri, host] of [
      [uris[1], 'xn--shp-tna.example'],
      [uris[2], 'app.example:8443'],
    ]) {
      // A client of its own each time: a consent remembered for the first would skip the page.
      const shop = await register({ redirect_uris: uris });
      const { verifier, challenge } = await pkce();
      const target = authorizeUrl(t.url, {
        client_id: shop.client_id,
        redirect_uri: uri,
        code_challenge: challenge,
        code_challenge_method: 'S256',
      });
      const page = await openAuthorize(target);
      const answer = await submitSignIn(t.url, page, { username: 'admin', password: ADMIN_PASSWORD });
      expect(answer.html).toContain(`<strong>${host}</strong>`);
      const back = await submitConsent(t.url, answer, 'allow', page.cookie);
      expect(back.location!.host).toBe(host);
      expect(verifier).toEqual(expect.any(String));
    }
  });

  it('takes a bearer token on /api/me/grants, never the sign-in cookie', async () => {
    const shop = await register({ name: 'Cookie shop' });
    const given = await signIn(shop.client_id);
    await allow(given.answer, given.cookie);
    const res = await request(t.url).delete(`/api/me/grants/${shop.client_id}`).set('Cookie', given.cookie!);
    expect(res.status).toBe(401);
    const listed = await t.http.get('/api/me/grants').query({ limit: 100 }).expect(200);
    expect(listed.body.items.map((grant: { client_id: string }) => grant.client_id)).toContain(shop.client_id);
  });

  it("shows an application's token only its own grant: it cannot list nor withdraw the person's other consents", async () => {
    const user = await userWith(['product:read', 'article:read']);
    const spy = await register({ name: 'Spy', scopes: ['product:read'] });
    const victim = await register({ name: 'Victim', scopes: ['article:read'] });
    const toVictim = await signIn(victim.client_id, {}, user.name);
    await allow(toVictim.answer, toVictim.cookie);
    const toSpy = await signIn(spy.client_id, {}, user.name);
    const tokens = await redeem(spy.client_id, await allow(toSpy.answer, toSpy.cookie), toSpy.verifier).expect(200);
    const app = bearer(tokens.body.access_token as string);

    const seen = await app.get('/api/me/grants').expect(200);
    expect(seen.body.items.map((grant: { client_id: string }) => grant.client_id)).toEqual([spy.client_id]);
    expect(seen.body.total).toBe(1);
    expectProblem(await app.delete(`/api/me/grants/${victim.client_id}`), 404, 'grant-not-found');
    const mine = await user.agent.get('/api/me/grants').expect(200);
    expect(mine.body.items.map((grant: { client_id: string }) => grant.client_id).sort()).toEqual(
      [spy.client_id, victim.client_id].sort(),
    );
    // Its own consent it may withdraw, which ends its own sign-in.
    await app.delete(`/api/me/grants/${spy.client_id}`).expect(204);
    const after = await refresh(spy.client_id, tokens.body.refresh_token as string);
    expect([after.status, after.body.error]).toEqual([400, 'invalid_grant']);
  });

  // Which names read as the administration interface: client-names.spec.ts. Here, one refusal and one acceptance.
  it('refuses names that read as the administration interface through invisible, reordering or look-alike letters', async () => {
    const res = await t.http
      .post(CLIENTS)
      .send({ name: 'Shop ad\u200Bmin', redirect_uris: [CALLBACK], public: true, scopes: ['product:read'] });
    expect(JSON.stringify(expectProblem(res, 400, 'validation-failed').errors)).toContain('name');
    await t.http
      .post(CLIENTS)
      .send({ name: 'Badminton Club', redirect_uris: [CALLBACK], public: true, scopes: ['product:read'] })
      .expect(201);
  });

  it('forgets remembered consents when the redirect URIs change: the next sign-in asks again', async () => {
    const shop = await register({ name: 'Moving shop' });
    const given = await signIn(shop.client_id);
    await allow(given.answer, given.cookie);
    expect((await signIn(shop.client_id)).answer.status).toBe(303);
    await t.http
      .patch(`${CLIENTS}/${shop.client_id}`)
      .send({ redirect_uris: [CALLBACK, 'https://elsewhere.example/cb'] })
      .expect(200);
    const again = await signIn(shop.client_id);
    expect(again.answer.status).toBe(200);
    expect(again.answer.hidden.consent_token).toEqual(expect.any(String));
    // A new name alone keeps them.
    await allow(again.answer, again.cookie);
    await t.http.patch(`${CLIENTS}/${shop.client_id}`).send({ name: 'Moved shop' }).expect(200);
    expect((await signIn(shop.client_id)).answer.status).toBe(303);
  });

  it('answers odd scopes on registration, change and authorization without a 500', async () => {
    const base = { name: 'Odd', redirect_uris: [CALLBACK], public: true };
    const bodies: unknown[] = [
      { ...base, scopes: Array.from({ length: 5000 }, (_, i) => `r${i}:read`) },
      { ...base, scopes: ['product:read', 'product:read'] },
      { ...base, scopes: [''] },
      { ...base, scopes: [] },
      { ...base, scopes: ['*', 'product:read'], default_scopes: ['nothing:read'] },
      { ...base, scopes: [1, null] },
      { ...base, scopes: [['product:read']] },
      { ...base, scopes: 'product:read' },
      { ...base, scopes: { 0: 'product:read' } },
      { ...base, scopes: ['product:read'], default_scopes: 'product:read' },
      { ...base, scopes: ['product:read'], default_scopes: [''] },
      { ...base, scopes: ['product:read'], default_scopes: ['product:read', 'product:read'] },
      { ...base, scopes: ['product:read'], default_scopes: [{}] },
      { ...base, name: '', scopes: ['product:read'] },
      { ...base, name: ['Shop'], scopes: ['product:read'] },
      { ...base, name: '\u200B', scopes: ['product:read'] },
    ];
    const shop = await register();
    for (const body of bodies) {
      const label = JSON.stringify(body).slice(60, 160);
      const created = await t.http.post(CLIENTS).send(body as object);
      expect([label, created.status]).toEqual([label, 400]);
      const changed = await t.http.patch(`${CLIENTS}/${shop.client_id}`).send(body as object);
      expect([label, changed.status]).toEqual([label, 400]);
    }
    // `*` beside another permission is `*`: only a holder of `*` may set it.
    const star = await t.http.post(CLIENTS).send({ ...base, scopes: ['*', 'product:read'] });
    expect(star.status).toBe(201);

    for (const scope of [' ', 'product:read product:read', '*', '* product:read', 'a'.repeat(3000), 'x:y', '\t']) {
      const { verifier, challenge } = await pkce();
      const target = authorizeUrl(t.url, {
        client_id: shop.client_id,
        redirect_uri: CALLBACK,
        code_challenge: challenge,
        code_challenge_method: 'S256',
        scope,
      });
      const page = await openAuthorize(target);
      expect([scope.slice(0, 20), page.status < 500]).toEqual([scope.slice(0, 20), true]);
      if (page.status !== 200) continue;
      const answer = await submitSignIn(t.url, page, { username: 'admin', password: ADMIN_PASSWORD });
      expect([scope.slice(0, 20), answer.status < 500]).toEqual([scope.slice(0, 20), true]);
      expect(verifier).toEqual(expect.any(String));
    }
    const repeated = new URL('/api/oauth/authorize', t.url);
    repeated.search = `client_id=${shop.client_id}&redirect_uri=${encodeURIComponent(CALLBACK)}&scope=a&scope=b`;
    expect((await openAuthorize(repeated)).status).toBe(302);
    const nested = await request(t.url).post('/api/oauth/authorize').type('form').send(`client_id[a]=1&scope[]=x`);
    expect(nested.status).toBe(400);
    // A NUL byte is refused before the endpoint reads the request: a problem document, as the API document says.
    const nul = await request(t.url).get(`/api/oauth/authorize?client_id=${shop.client_id}%00`);
    expect(nul.status).toBe(400);
    expect(nul.headers['content-type']).toMatch(/^application\/problem\+json/);
    for (const id of ['x'.repeat(3000), encodeURIComponent('app_\u00e9\u{1F600}'), 'app_%25']) {
      expectProblem(await t.http.delete(`/api/me/grants/${id}`), 404, 'grant-not-found');
      expectProblem(await t.http.get(`${CLIENTS}/${id}`), 404, 'oauth-client-not-found');
    }
  });
});
