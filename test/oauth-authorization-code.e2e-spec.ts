import { jest } from '@jest/globals';
import * as client from 'openid-client';
import type { Browser } from 'playwright-core';
import request from 'supertest';
import { createApp } from '../src/app.factory.js';
import { Clock } from '@file-fields/nest';
import {
  adminRedirect,
  authorizationCode,
  authorizeUrl,
  openAuthorize,
  pkce,
  redeemBody,
  signInAt,
  submitSignIn,
} from './support/authorization-code.js';
import { openBrowser } from './support/browser.js';
import { freePort } from './support/free-port.js';
import { observeServer } from './support/openapi-contract.js';
import { ADMIN_PASSWORD, createTestDatabase, startTestApp, type TestApp } from './support/test-app.js';

const TOKEN = '/api/oauth/token';

describe('Authorization code flow with PKCE: GET/POST /api/oauth/authorize', () => {
  let t: TestApp;
  const token = (body: object) => request(t.url).post(TOKEN).type('form').send(body);
  const me = (accessToken: string) => request(t.url).get('/api/me').set('Authorization', `Bearer ${accessToken}`);

  beforeAll(async () => {
    // Failed sign-ins here all come from 127.0.0.1: the limits have their own test below.
    t = await startTestApp({ TOKEN_FAILURES_PER_MINUTE: '1000', REFRESH_REUSE_GRACE: '0' });
  });
  afterEach(() => jest.restoreAllMocks());
  afterAll(async () => t.close({ destroy: true }));

  it('lets openid-client sign in: discovery, PKCE, state and iss checked, then refresh and /api/me', async () => {
    const config = await client.discovery(new URL(t.url), 'administration', undefined, client.None(), {
      algorithm: 'oauth2',
      execute: [client.allowInsecureRequests],
    });
    expect(config.serverMetadata()).toMatchObject({
      authorization_endpoint: `${t.url}/api/oauth/authorize`,
      response_types_supported: ['code'],
      code_challenge_methods_supported: ['S256'],
      grant_types_supported: expect.arrayContaining(['authorization_code', 'refresh_token', 'password']),
      authorization_response_iss_parameter_supported: true,
    });
    const verifier = client.randomPKCECodeVerifier();
    const state = client.randomState();
    const target = client.buildAuthorizationUrl(config, {
      redirect_uri: adminRedirect(t.url),
      scope: 'product:read user:read',
      code_challenge: await client.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state,
    });
    const back = await signInAt(t.url, target, 'admin', ADMIN_PASSWORD);
    expect(back.searchParams.get('state')).toBe(state);
    expect(back.searchParams.get('iss')).toBe(t.url);
    const tokens = await client.authorizationCodeGrant(config, back, {
      pkceCodeVerifier: verifier,
      expectedState: state,
    });
    expect(tokens).toMatchObject({ token_type: 'bearer', scope: 'product:read user:read', expires_in: 3600 });
    const account = await me(tokens.access_token).expect(200);
    expect(account.body).toMatchObject({ kind: 'user', name: 'admin', permissions: ['product:read', 'user:read'] });
    const refreshed = await client.refreshTokenGrant(config, tokens.refresh_token!);
    await me(refreshed.access_token).expect(200);
    // A wrong state is caught by the client.
    const other = await authorizationCode(t.url, 'admin', ADMIN_PASSWORD, { state: 'the-real-one' });
    const forged = new URL(`${adminRedirect(t.url)}?code=${other.code}&state=another&iss=${encodeURIComponent(t.url)}`);
    const refusal = await client
      .authorizationCodeGrant(config, forged, { pkceCodeVerifier: other.verifier, expectedState: 'the-real-one' })
      .catch((error: Error) => error);
    expect((refusal as Error & { cause?: Error }).cause?.message).toMatch(/"state"/);
    // Refused before any token request: the code still works with its state.
    const genuine = new URL(forged);
    genuine.searchParams.set('state', 'the-real-one');
    await client.authorizationCodeGrant(config, genuine, {
      pkceCodeVerifier: other.verifier,
      expectedState: 'the-real-one',
    });
  });

  it('serves an accessible sign-in page that no frame, script or other site can use', async () => {
    const { challenge } = await pkce();
    const page = await openAuthorize(authorizeUrl(t.url, { code_challenge: challenge, code_challenge_method: 'S256' }));
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const policy = page.headers.get('content-security-policy')!;
    expect(policy).toMatch(/frame-ancestors 'none'/);
    expect(policy).toMatch(/default-src 'none'/);
    expect(policy).toMatch(new RegExp(`form-action 'self' ${t.url.replace(/[.]/g, '\\.')}`));
    expect(policy).not.toMatch(/script-src|unsafe/);
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(page.headers.get('set-cookie')).toMatch(
      /^oauth_sign_in=[\w-]+; Path=\/api\/oauth\/authorize; .*HttpOnly; SameSite=Strict/,
    );
    expect(page.html).not.toMatch(/<script/i);
    expect(page.html).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">');
    expect(page.html).toMatch(
      /<label for="username">Username\s*<input id="username" name="username" autocomplete="username"/,
    );
    expect(page.html).toMatch(
      /<label for="password">Password\s*<input id="password" name="password" type="password" autocomplete="current-password"/,
    );
    expect(page.hidden).toMatchObject({
      client_id: 'administration',
      code_challenge: challenge,
      csrf_token: expect.any(String),
    });
  });

  // Which requests are refused, and how, is request-checks.spec.ts: here, one of each kind of answer over HTTP.
  it('shows an error page, never a redirect, for a redirect URI not registered', async () => {
    const { challenge } = await pkce();
    const page = await openAuthorize(
      authorizeUrl(t.url, {
        code_challenge: challenge,
        code_challenge_method: 'S256',
        state: 's',
        redirect_uri: 'https://evil.example/callback',
      }),
    );
    expect({ status: page.status, location: page.location }).toEqual({ status: 400, location: undefined });
    expect(page.html).toContain('This sign-in request cannot be used');
    expect(page.headers.get('content-security-policy')).toMatch(/frame-ancestors 'none'/);
  });

  it('sends other errors back with error, state and iss; an over-long state is never sent back', async () => {
    const { challenge } = await pkce();
    const answer = await openAuthorize(
      authorizeUrl(t.url, { code_challenge: challenge, code_challenge_method: 'plain', state: 'xyz' }),
    );
    expect(answer.status).toBe(302);
    expect(answer.location!.origin + answer.location!.pathname).toBe(adminRedirect(t.url));
    expect(Object.fromEntries(answer.location!.searchParams)).toEqual({
      error: 'invalid_request',
      error_description: expect.any(String),
      state: 'xyz',
      iss: t.url,
    });
    const long = 's'.repeat(1001);
    const withoutState = await openAuthorize(
      authorizeUrl(t.url, { code_challenge: challenge, code_challenge_method: 'S256', state: long }),
    );
    expect(withoutState.status).toBe(302);
    expect(withoutState.location!.searchParams.get('error')).toBe('invalid_request');
    expect(withoutState.location!.searchParams.has('state')).toBe(false);
    expect(withoutState.location!.href).not.toContain(long);
  });

  it('echoes state when present and allows it to be absent', async () => {
    const { challenge } = await pkce();
    const base = { code_challenge: challenge, code_challenge_method: 'S256' };
    const withState = await signInAt(
      t.url,
      authorizeUrl(t.url, { ...base, state: 'a b&c=d' }),
      'admin',
      ADMIN_PASSWORD,
    );
    expect(withState.searchParams.get('state')).toBe('a b&c=d');
    const without = await signInAt(t.url, authorizeUrl(t.url, base), 'admin', ADMIN_PASSWORD);
    expect(without.searchParams.has('state')).toBe(false);
    expect(without.searchParams.get('code')).toEqual(expect.any(String));
  });

  it('sends access_denied back when the person cancels', async () => {
    const { challenge } = await pkce();
    const page = await openAuthorize(
      authorizeUrl(t.url, { code_challenge: challenge, code_challenge_method: 'S256', state: 'k' }),
    );
    const answer = await submitSignIn(t.url, page, { action: 'cancel', username: undefined, password: undefined });
    expect(answer.status).toBe(303);
    expect(answer.location!.searchParams.get('error')).toBe('access_denied');
    expect(answer.location!.searchParams.get('state')).toBe('k');
  });

  it('shows the page again for a wrong password, with a message and no code', async () => {
    const { challenge } = await pkce();
    const page = await openAuthorize(authorizeUrl(t.url, { code_challenge: challenge, code_challenge_method: 'S256' }));
    const wrong = await submitSignIn(t.url, page, { username: 'admin', password: 'not the password' });
    expect(wrong.status).toBe(401);
    expect(wrong.location).toBeUndefined();
    expect(wrong.html).toContain('role="alert"');
    expect(wrong.html).toContain('Wrong username or password.');
    expect(wrong.html).toContain('value="admin"');
    // The page shown again works.
    const right = await submitSignIn(t.url, wrong, { username: 'admin', password: ADMIN_PASSWORD }, page.cookie);
    expect(right.status).toBe(303);
  });

  it('refuses a form without its CSRF token, with a forged one, or without the cookie it is bound to', async () => {
    const { challenge } = await pkce();
    const page = await openAuthorize(
      authorizeUrl(t.url, { code_challenge: challenge, code_challenge_method: 'S256', state: 'one' }),
    );
    const token = page.hidden.csrf_token;
    const other = await openAuthorize(
      authorizeUrl(t.url, { code_challenge: challenge, code_challenge_method: 'S256', state: 'two' }),
    );
    const credentials = { username: 'admin', password: ADMIN_PASSWORD };
    const refusals = [
      await submitSignIn(t.url, page, { ...credentials, csrf_token: undefined }),
      await submitSignIn(t.url, page, { ...credentials, csrf_token: `${token.slice(0, -4)}AAAA` }),
      await submitSignIn(t.url, page, { ...credentials, csrf_token: 'enc:v1:abc:def' }),
      await submitSignIn(t.url, page, credentials, ''),
      await submitSignIn(t.url, page, credentials, 'oauth_sign_in=AAAAAAAAAAAAAAAAAAAAAAAA'),
      // Another request's token: bound to its parameters.
      await submitSignIn(t.url, page, { ...credentials, csrf_token: other.hidden.csrf_token }, other.cookie),
    ];
    for (const [index, refused] of refusals.entries()) {
      expect({ index, status: refused.status, location: refused.location }).toEqual({
        index,
        status: 403,
        location: undefined,
      });
      expect(refused.html).toContain('could not be verified');
    }
    expect((await submitSignIn(t.url, page, credentials)).status).toBe(303);
  });

  it('gives a fresh form for one older than 15 minutes', async () => {
    const { challenge } = await pkce();
    const page = await openAuthorize(authorizeUrl(t.url, { code_challenge: challenge, code_challenge_method: 'S256' }));
    later(16 * 60_000);
    const old = await submitSignIn(t.url, page, { username: 'admin', password: ADMIN_PASSWORD });
    expect(old.status).toBe(200);
    expect(old.html).toContain('The sign-in form expired.');
    expect((await submitSignIn(t.url, old, { username: 'admin', password: ADMIN_PASSWORD }, page.cookie)).status).toBe(
      303,
    );
  });

  it('redeems a code once for the same tokens as the password grant; a reuse revokes its sign-in', async () => {
    const { code, verifier } = await authorizationCode(t.url, 'admin', ADMIN_PASSWORD);
    const first = await token(redeemBody(t.url, code, verifier)).expect(200);
    expect(first.headers['cache-control']).toBe('no-store');
    expect(first.body).toEqual({
      access_token: expect.any(String),
      token_type: 'Bearer',
      expires_in: 3600,
      scope: '*',
      refresh_token: expect.any(String),
    });
    await me(first.body.access_token).expect(200);
    const again = await token(redeemBody(t.url, code, verifier)).expect(400);
    expect(again.body).toEqual({ error: 'invalid_grant', error_description: expect.stringMatching(/already used/) });
    await me(first.body.access_token).expect(401);
    const refresh = await token({
      grant_type: 'refresh_token',
      client_id: 'administration',
      refresh_token: first.body.refresh_token,
    });
    expect(refresh.status).toBe(400);
    expect(refresh.body.error).toBe('invalid_grant');
  });

  // Each check of a redemption (expiry, verifier, redirect URI, client, the code spent by a failed one):
  // authorization-codes.service.spec.ts and authorization-code.grant.spec.ts.
  it('lets exactly one of concurrent redemptions of a code through', async () => {
    const { code, verifier } = await authorizationCode(t.url, 'admin', ADMIN_PASSWORD);
    const answers = await Promise.all(Array.from({ length: 6 }, () => token(redeemBody(t.url, code, verifier))));
    expect(answers.map((res) => res.status).sort()).toEqual([200, 400, 400, 400, 400, 400]);
    for (const res of answers.filter((answer) => answer.status === 400)) expect(res.body.error).toBe('invalid_grant');
    // The others were reuses: the sign-in the winner got is revoked.
    const winner = answers.find((answer) => answer.status === 200)!;
    await me(winner.body.access_token).expect(401);
  });

  /** Moves the service's clock this far ahead. */
  function later(ms: number): void {
    const clock = t.app.get(Clock);
    const real = clock.nowMs.bind(clock);
    jest.spyOn(clock, 'nowMs').mockImplementation(() => real() + ms);
  }
});

describe('The sign-in page and the password grant share the failure limits', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ TOKEN_FAILURES_PER_MINUTE: '3', TOKEN_FAILURE_WINDOW_SECONDS: '60' });
  });
  afterAll(async () => t.close({ destroy: true }));

  it('refuses the right password on the page, and at the token endpoint, once a user had too many failures', async () => {
    const { challenge } = await pkce();
    let page = await openAuthorize(authorizeUrl(t.url, { code_challenge: challenge, code_challenge_method: 'S256' }));
    const cookie = page.cookie;
    for (let attempt = 0; attempt < 3; attempt++) {
      page = await submitSignIn(t.url, page, { username: 'admin', password: `wrong-${attempt}` }, cookie);
      expect(page.status).toBe(401);
    }
    const limited = await submitSignIn(t.url, page, { username: 'admin', password: ADMIN_PASSWORD }, cookie);
    expect(limited.status).toBe(429);
    expect(limited.location).toBeUndefined();
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(limited.html).toContain('Too many failed sign-ins.');
    const grant = await request(t.url)
      .post(TOKEN)
      .send({ grant_type: 'password', client_id: 'administration', username: 'admin', password: ADMIN_PASSWORD });
    expect(grant.status).toBe(429);
  });
});

describe('OAUTH_PASSWORD_GRANT=off', () => {
  let url: string;
  let close: () => Promise<void>;

  beforeAll(async () => {
    // Started by hand: startTestApp signs its administrator in with the password grant, which is off here.
    const database = await createTestDatabase();
    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    const saved = { ...process.env };
    Object.assign(process.env, { ADMIN_PASSWORD, OAUTH_ISSUER: url, OAUTH_PASSWORD_GRANT: 'off' }, database.env);
    try {
      const app = await createApp();
      observeServer(app.getHttpServer());
      await app.listen(port, '127.0.0.1');
      close = async () => {
        await app.close();
        await database.drop();
      };
    } finally {
      process.env = saved;
    }
  });
  afterAll(async () => close());

  it('answers the password grant unsupported_grant_type, and signs people in with the code flow', async () => {
    const refused = await request(url)
      .post(TOKEN)
      .send({ grant_type: 'password', client_id: 'administration', username: 'admin', password: ADMIN_PASSWORD })
      .expect(400);
    expect(refused.body.error).toBe('unsupported_grant_type');
    const metadata = await request(url).get('/.well-known/oauth-authorization-server').expect(200);
    expect(metadata.body.grant_types_supported).toEqual(['authorization_code', 'client_credentials', 'refresh_token']);
    const { code, verifier } = await authorizationCode(url, 'admin', ADMIN_PASSWORD);
    const tokens = await request(url)
      .post(TOKEN)
      .type('form')
      .send(redeemBody(url, code, verifier))
      .expect(200);
    await request(url).get('/api/me').set('Authorization', `Bearer ${tokens.body.access_token}`).expect(200);
  });
});

describe('The sign-in page in Chromium at 390 px', () => {
  let t: TestApp;
  let browser: Browser;

  beforeAll(async () => {
    t = await startTestApp();
    browser = await openBrowser();
  });
  afterAll(async () => {
    await browser.close();
    await t.close({ destroy: true });
  });

  it('is filled by its labels, breaks no policy, fits the width, and sends the browser back with a code', async () => {
    const page = await browser.newPage({ viewport: { width: 390, height: 800 } });
    const refused: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy|Refused/i.test(message.text())) refused.push(message.text());
    });
    const { challenge } = await pkce();
    const target = authorizeUrl(t.url, { code_challenge: challenge, code_challenge_method: 'S256', state: 'st' });
    await page.goto(target.href);
    // The hashed style applies (the policy admits it), and nothing is wider than the screen.
    const layout = await page.evaluate(() => {
      const dom = globalThis as unknown as {
        document: { documentElement: { scrollWidth: number }; querySelector(s: string): unknown };
        getComputedStyle(element: unknown): { maxWidth: string };
      };
      return {
        maxWidth: dom.getComputedStyle(dom.document.querySelector('main')).maxWidth,
        scrollWidth: dom.document.documentElement.scrollWidth,
      };
    });
    expect(layout.maxWidth).not.toBe('none');
    expect(layout.scrollWidth).toBeLessThanOrEqual(390);
    await page.getByLabel('Username').fill('admin');
    await page.getByLabel('Password').fill(ADMIN_PASSWORD);
    const callback = page.waitForRequest((req) => req.url().startsWith(adminRedirect(t.url)));
    await page.getByRole('button', { name: 'Sign in' }).click();
    const back = new URL((await callback).url());
    expect(back.searchParams.get('code')).toEqual(expect.any(String));
    expect(back.searchParams.get('state')).toBe('st');
    expect(refused).toEqual([]);
  });
});
