import { randomBytes } from 'node:crypto';
import { SecretBox } from '../../../secrets/index.js';
import type { PermissionCatalog } from '../../credentials/permission-catalog.service.js';
import { loadTokenConfig } from '../../token.config.js';
import { checkedRequest, recordingTrail, SHOP, VISITOR } from '../../testing/authorization-fakes.js';
import { asReal, FakeClock, FakeUsersRepository } from '../../testing/in-memory-repositories.js';
import { FakeOAuthGrantsRepository } from '../../testing/oauth-client-fakes.js';
import { Consent } from './consent.js';
import type { AuthorizationAnswer, Visitor } from './pages/page-answer.js';
import { SIGN_IN_COOKIE, SignInForm } from './pages/sign-in-form.js';
import { AuthorizationRedirectError } from './request/authorization-request.js';

const COOKIE = 'c'.repeat(22);
const BROWSER: Visitor = { ...VISITOR, cookies: `${SIGN_IN_COOKIE}=${COOKIE}` };
const catalog = {
  list: () => [{ permission: 'product:read', resource: 'product', access: 'read', description: 'Read the products' }],
};

const page = (answer: unknown) => answer as Extract<AuthorizationAnswer, { kind: 'page' }>;

describe('Consent', () => {
  let clock: FakeClock;
  let form: SignInForm;
  let grants: FakeOAuthGrantsRepository;
  let users: FakeUsersRepository;
  let recorded: ReturnType<typeof recordingTrail>['recorded'];
  let consent: Consent;
  const request = checkedRequest();
  let ada: { id: number; username: string };

  beforeEach(async () => {
    clock = new FakeClock();
    form = new SignInForm(new SecretBox(randomBytes(32)), clock);
    grants = new FakeOAuthGrantsRepository();
    users = new FakeUsersRepository();
    ada = await users.create({ username: 'ada', passwordHash: 'x', roleId: 1 });
    const audit = recordingTrail();
    recorded = audit.recorded;
    consent = new Consent(
      form,
      asReal(grants),
      asReal(users),
      asReal<PermissionCatalog>(catalog as never),
      audit.trail,
      clock,
      loadTokenConfig({ OAUTH_ISSUER: 'https://service.test' }),
    );
  });

  const sealed = (scope: string[], userId = ada.id) => form.consentToken(request, COOKIE, userId, scope);

  describe('whether to ask', () => {
    it('never asks for the built-in administration interface', async () => {
      const builtIn = checkedRequest({ client: { ...SHOP, builtIn: true } });
      await expect(consent.given(builtIn, ada, ['product:read'])).resolves.toBe(true);
    });

    it('asks unless a remembered consent covers every permission asked', async () => {
      await expect(consent.given(request, ada, ['product:read'])).resolves.toBe(false);
      await grants.remember(ada.id, SHOP.clientId, ['product:read'], 0);
      await expect(consent.given(request, ada, ['product:read'])).resolves.toBe(true);
      await expect(consent.given(request, ada, ['product:read', 'product:write'])).resolves.toBe(false);
    });
  });

  it('shows the permissions in words, with a token sealing who signed in and the scope shown', () => {
    const answer = page(consent.page(request, BROWSER, ada, ['product:read'], 200));
    expect(answer.html).toContain('Read the products');
    const token = /name="consent_token" value="([^"]+)"/.exec(answer.html)![1];
    expect(form.checkConsent(token, BROWSER.cookies, request)).toEqual({
      check: 'valid',
      userId: ada.id,
      scope: ['product:read'],
    });
  });

  describe('the posted form', () => {
    it('sends back to the sign-in a forged (403) or old (200) form, or one of an account gone since', async () => {
      await expect(
        consent.decide(request, { consent_token: 'forged', action: 'allow' }, BROWSER),
      ).resolves.toMatchObject({
        kind: 'sign-in-again',
        status: 403,
      });
      const old = sealed(['product:read']);
      clock.advance(15 * 60_000);
      await expect(consent.decide(request, { consent_token: old, action: 'allow' }, BROWSER)).resolves.toMatchObject({
        kind: 'sign-in-again',
        status: 200,
      });
      const gone = sealed(['product:read'], 999);
      await expect(consent.decide(request, { consent_token: gone, action: 'allow' }, BROWSER)).resolves.toMatchObject({
        kind: 'sign-in-again',
        shown: { message: 'Your account is gone. Sign in again.' },
      });
    });

    it('records Deny and sends access_denied back to the client', async () => {
      const denied = consent.decide(request, { consent_token: sealed(['product:read']), action: 'deny' }, BROWSER);
      await expect(denied).rejects.toBeInstanceOf(AuthorizationRedirectError);
      await expect(denied).rejects.toMatchObject({ error: 'access_denied', state: 'xyz' });
      expect(recorded).toMatchObject([{ action: 'oauth-consent.deny', actor: `user:${ada.id}` }]);
      expect(grants.rows).toHaveLength(0);
    });

    it('asks again for neither Allow nor Deny', async () => {
      const answer = await consent.decide(request, { consent_token: sealed(['product:read']) }, BROWSER);
      expect(page(answer).status).toBe(400);
      expect(page(answer).html).toContain('Choose Allow or Deny.');
    });

    it('hands on Allow with the person and the scope the page showed', async () => {
      const decision = await consent.decide(
        request,
        { consent_token: sealed(['product:read']), action: 'allow' },
        BROWSER,
      );
      expect(decision).toMatchObject({ kind: 'allowed', user: { id: ada.id }, scope: ['product:read'] });
    });
  });

  it('remembers and records an allowed scope; an empty one is invalid_scope', async () => {
    await consent.allow(request, ada, ['product:read'], BROWSER);
    expect(grants.rows).toMatchObject([{ userId: ada.id, clientId: SHOP.clientId, scopes: ['product:read'] }]);
    expect(recorded).toMatchObject([{ action: 'oauth-consent.allow', details: { scopes: ['product:read'] } }]);
    await expect(consent.allow(request, ada, [], BROWSER)).rejects.toMatchObject({ error: 'invalid_scope' });
  });
});
