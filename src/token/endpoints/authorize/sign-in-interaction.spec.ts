import { jest } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { noRedis } from '../../../redis/testing.js';
import { SecretBox } from '../../../secrets/index.js';
import type { PasswordHasher } from '../../crypto/password-hasher.js';
import { UserCredentials } from '../../grants/user-credentials.js';
import { TokenFailureLimiter } from '../../limits/token-failure-limiter.js';
import { loadTokenConfig } from '../../token.config.js';
import { checkedRequest, recordingTrail, VISITOR } from '../../testing/authorization-fakes.js';
import { asReal, FakeClock, FakeUsersRepository } from '../../testing/in-memory-repositories.js';
import type { AuthorizationAnswer, Visitor } from './pages/page-answer.js';
import { SIGN_IN_COOKIE, SignInForm } from './pages/sign-in-form.js';
import { AuthorizationRedirectError } from './request/authorization-request.js';
import { SignInInteraction } from './sign-in-interaction.js';

const hasher = {
  hash: (password: string) => Promise.resolve(`hashed:${password}`),
  verify: (password: string, stored: string) => Promise.resolve(stored === `hashed:${password}`),
};

const COOKIE = 'c'.repeat(22);
const BROWSER: Visitor = { ...VISITOR, cookies: `${SIGN_IN_COOKIE}=${COOKIE}` };

const page = (answer: unknown) => answer as Extract<AuthorizationAnswer, { kind: 'page' }>;

describe('SignInInteraction', () => {
  let clock: FakeClock;
  let form: SignInForm;
  let users: FakeUsersRepository;
  let recorded: ReturnType<typeof recordingTrail>['recorded'];
  let signIn: SignInInteraction;
  const request = checkedRequest();

  // rate-limiter-flexible's memory store expires its keys with timers.
  beforeEach(async () => {
    jest.useFakeTimers();
    clock = new FakeClock();
    form = new SignInForm(new SecretBox(randomBytes(32)), clock);
    users = new FakeUsersRepository();
    await users.create({ username: 'ada', passwordHash: 'hashed:right-password', roleId: 1 });
    const audit = recordingTrail();
    recorded = audit.recorded;
    const config = loadTokenConfig({ OAUTH_ISSUER: 'https://service.test', TOKEN_FAILURES_PER_MINUTE: '2' });
    const credentials = new UserCredentials(asReal(users), asReal<PasswordHasher>(hasher), audit.trail);
    signIn = new SignInInteraction(form, credentials, new TokenFailureLimiter(config, noRedis()), config);
  });
  afterEach(() => jest.useRealTimers());

  const posted = (fields: Record<string, unknown>) => ({ csrf_token: form.token(request, COOKIE), ...fields });

  describe('the page', () => {
    it("binds its form to the browser's cookie, and lets it post only here and to the client", () => {
      const answer = page(signIn.page(request, VISITOR, 200));
      expect(answer.status).toBe(200);
      const cookie = /^oauth_sign_in=([^;]+);/.exec(answer.headers['Set-Cookie'])![1];
      expect(answer.headers['Set-Cookie']).toMatch(/HttpOnly; SameSite=Strict; Secure$/);
      expect(answer.policy).toContain("form-action 'self' https://shop.example");
      const token = /name="csrf_token" value="([^"]+)"/.exec(answer.html)![1];
      expect(form.check(token, `${SIGN_IN_COOKIE}=${cookie}`, request)).toBe('valid');
    });

    it('keeps the cookie a browser already has (two tabs signing in at once)', () => {
      expect(page(signIn.page(request, BROWSER, 200)).headers['Set-Cookie']).toContain(`${SIGN_IN_COOKIE}=${COOKIE};`);
    });
  });

  describe('the posted form', () => {
    it('refuses a form without a token bound to this cookie (403), and renews an old one (200)', () => {
      expect(page(signIn.read(request, { username: 'ada', password: 'x' }, BROWSER)).status).toBe(403);
      const other = { ...VISITOR, cookies: `${SIGN_IN_COOKIE}=${'d'.repeat(22)}` };
      expect(page(signIn.read(request, posted({ username: 'ada', password: 'x' }), other)).status).toBe(403);
      const fields = posted({ username: 'ada', password: 'x' });
      clock.advance(15 * 60_000);
      const renewed = page(signIn.read(request, fields, BROWSER));
      expect(renewed.status).toBe(200);
      expect(renewed.html).toContain('The sign-in form expired');
    });

    it('asks again for a missing username or password, keeping the username typed', () => {
      const answer = page(signIn.read(request, posted({ username: 'ada' }), BROWSER));
      expect(answer.status).toBe(400);
      expect(answer.html).toContain('value="ada"');
    });

    it('sends Cancel back to the client as access_denied', () => {
      expect(() => signIn.read(request, posted({ action: 'cancel' }), BROWSER)).toThrow(AuthorizationRedirectError);
    });

    it('hands on the username and password of a good form', () => {
      expect(signIn.read(request, posted({ username: 'ada', password: 'pw' }), BROWSER)).toEqual({
        kind: 'credentials',
        username: 'ada',
        password: 'pw',
      });
    });
  });

  describe('the sign-in', () => {
    it('signs the person in with the right password', async () => {
      const outcome = await signIn.signIn(request, 'ada', 'right-password', BROWSER);
      expect(outcome).toMatchObject({ kind: 'signed-in', user: { username: 'ada' } });
      await signIn.signedIn(request, { id: 1 }, BROWSER);
      expect(recorded.map((event) => [event.action, event.clientId])).toEqual([
        ['sign-in.succeeded', 'app_shop000000000000000000'],
      ]);
    });

    it('shows the page again (401) for a wrong password, and 429 with Retry-After past the limit', async () => {
      for (let i = 0; i < 2; i++) {
        const answer = page(await signIn.signIn(request, 'ada', 'wrong', BROWSER));
        expect(answer.status).toBe(401);
        expect(answer.html).toContain('Wrong username or password.');
      }
      const limited = page(await signIn.signIn(request, 'ada', 'right-password', BROWSER));
      expect(limited.status).toBe(429);
      expect(Number(limited.headers['Retry-After'])).toBeGreaterThan(0);
      expect(recorded.map((event) => event.action)).toEqual(['sign-in.failed', 'sign-in.failed']);
    });
  });
});
