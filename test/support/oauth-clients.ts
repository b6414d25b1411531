import request from 'supertest';
import {
  authorizeUrl,
  openAuthorize,
  pkce,
  submitConsent,
  submitSignIn,
  type AuthorizeAnswer,
} from './authorization-code.js';
import { ADMIN_PASSWORD, passwordToken, type TestApp } from './test-app.js';

export const CLIENTS = '/api/oauth/clients';
export const TOKEN = '/api/oauth/token';
/** The redirect URI every client registered by `register` has. */
export const CALLBACK = 'https://shop.example/oauth/callback';
/** The password of the users `userWith` makes. */
export const USER_PASSWORD = 'a long enough password';

export interface Registered {
  client_id: string;
  client_secret?: string;
}

/**
 * Registering clients and walking a browser through their sign-in and consent pages, on the app `app()` answers
 * (a function, since suites start it in beforeAll).
 */
export function consentFlow(app: () => TestApp) {
  const bearer = (token: string) => request.agent(app().url).set('Authorization', `Bearer ${token}`);

  /** A user holding `permissions` through a role of its own, signed in through the administration client. */
  async function userWith(permissions: string[]) {
    const t = app();
    const name = `u${Math.random().toString(36).slice(2, 10)}`;
    const role = await t.http.post('/api/roles').send({ name, permissions }).expect(201);
    await t.http.post('/api/users').send({ username: name, password: USER_PASSWORD, role: name }).expect(201);
    const { access_token } = await passwordToken(t.url, name, USER_PASSWORD);
    return { name, roleId: role.body.id as number, agent: bearer(access_token) };
  }

  /** A public client "Shop" redirecting to CALLBACK with the ceiling product:read, `body` on top. */
  const register = async (body: Record<string, unknown> = {}): Promise<Registered> =>
    (
      await app()
        .http.post(CLIENTS)
        .send({ name: 'Shop', redirect_uris: [CALLBACK], public: true, scopes: ['product:read'], ...body })
        .expect(201)
    ).body as Registered;

  /** The sign-in page of `clientId` (in the browser of `cookie`, if given), and the verifier of its PKCE challenge. */
  async function authorize(clientId: string, params: Record<string, string> = {}, cookie?: string) {
    const { verifier, challenge } = await pkce();
    const target = authorizeUrl(app().url, {
      client_id: clientId,
      redirect_uri: CALLBACK,
      code_challenge: challenge,
      code_challenge_method: 'S256',
      state: 'xyz',
      ...params,
    });
    const page = await openAuthorize(target, cookie);
    expect(page.status).toBe(200);
    return { page, verifier, cookie: cookie ?? page.cookie };
  }

  /** Signs in as `username` at `clientId`: the consent page, or the redirect when none is asked. */
  async function signIn(clientId: string, params: Record<string, string> = {}, username = 'admin', cookie?: string) {
    const started = await authorize(clientId, params, cookie);
    const password = username === 'admin' ? ADMIN_PASSWORD : USER_PASSWORD;
    const answer = await submitSignIn(app().url, started.page, { username, password }, started.cookie);
    return { answer, cookie: started.cookie, verifier: started.verifier };
  }

  /** Redeems the code the redirect to `location` carries. */
  const redeem = (clientId: string, location: URL, verifier: string, redirectUri = CALLBACK) =>
    request(app().url)
      .post(TOKEN)
      .type('form')
      .send({
        grant_type: 'authorization_code',
        client_id: clientId,
        code: location.searchParams.get('code'),
        redirect_uri: redirectUri,
        code_verifier: verifier,
      });

  /** Presses Allow on a consent page: the redirect back, carrying a code. */
  async function allow(answer: AuthorizeAnswer, cookie: string | undefined) {
    expect(answer.status).toBe(200);
    const back = await submitConsent(app().url, answer, 'allow', cookie);
    expect(back.status).toBe(303);
    expect(back.location!.searchParams.get('code')).toEqual(expect.any(String));
    return back.location!;
  }

  return { bearer, userWith, register, authorize, signIn, redeem, allow };
}
