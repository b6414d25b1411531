import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../api/problems';
import {
  completeSignIn,
  PENDING_SIGN_IN_KEY,
  safeReturnTo,
  startSignIn,
  type FlowEnvironment,
  type ServerMetadata,
} from './authorization-flow';
import { base64url, codeChallenge, randomValue } from './pkce';

const ISSUER = 'http://127.0.0.1:3000';
const METADATA: ServerMetadata = {
  issuer: ISSUER,
  authorization_endpoint: `${ISSUER}/api/oauth/authorize`,
  authorization_response_iss_parameter_supported: true,
};

/** A tab at `origin`: its sessionStorage, and the addresses it was sent to. */
function tab(origin = ISSUER) {
  const map = new Map<string, string>();
  const assigned: string[] = [];
  const replaced: string[] = [];
  const env: FlowEnvironment = {
    storage: {
      getItem: (key) => map.get(key) ?? null,
      setItem: (key, value) => void map.set(key, value),
      removeItem: (key) => void map.delete(key),
    },
    metadata: () => Promise.resolve(METADATA),
    location: { origin, assign: (url) => void assigned.push(url), replace: (url) => void replaced.push(url) },
  };
  return { env, map, assigned, replaced };
}

/** A sign-in started in `env` for `returnTo`: the authorization request's parameters. */
async function started(env: FlowEnvironment, returnTo = '/content/product') {
  const assigned: string[] = [];
  await startSignIn(
    { ...env, location: { ...env.location, origin: ISSUER, assign: (url) => void assigned.push(url) } },
    returnTo,
  );
  return new URL(assigned[0]).searchParams;
}

const redeemer = (signIn = vi.fn(() => Promise.resolve())) => ({ signInWithCode: signIn });

describe('PKCE', () => {
  it('derives the S256 challenge of RFC 7636 Appendix B', async () => {
    expect(await codeChallenge('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk')).toBe(
      'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
    );
  });

  it('makes unpadded base64url values of 43 characters, different each time', () => {
    expect(base64url(new Uint8Array([251, 255, 191]))).toBe('-_-_');
    const values = new Set(Array.from({ length: 20 }, () => randomValue()));
    expect(values.size).toBe(20);
    for (const value of values) expect(value).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });
});

describe('startSignIn', () => {
  it('sends the tab to the authorization endpoint with state and an S256 challenge of the verifier it keeps', async () => {
    const { env, map, assigned } = tab();
    await startSignIn(env, '/content/product?offset=20');
    const target = new URL(assigned[0]);
    expect(target.origin + target.pathname).toBe(METADATA.authorization_endpoint);
    const pending = JSON.parse(map.get(PENDING_SIGN_IN_KEY)!) as Record<string, string>;
    expect(Object.fromEntries(target.searchParams)).toEqual({
      response_type: 'code',
      client_id: 'administration',
      redirect_uri: `${ISSUER}/admin/callback`,
      state: pending.state,
      code_challenge: await codeChallenge(pending.verifier),
      code_challenge_method: 'S256',
    });
    expect(pending.returnTo).toBe('/content/product?offset=20');
    expect(target.searchParams.has('code_verifier')).toBe(false);
  });

  it("opened at another address, moves to the same page at the issuer's, where the sign-in continues", async () => {
    const { env, map, assigned } = tab('http://localhost:3000');
    await startSignIn(env, '/settings/system/users');
    expect(assigned).toEqual([`${ISSUER}/admin/settings/system/users#sign-in`]);
    expect(map.size).toBe(0);
  });

  it('started unasked, replaces the page in the history at each step, so that Back does not loop', async () => {
    const elsewhere = tab('http://localhost:3000');
    await startSignIn(elsewhere.env, '/settings/system/users', { replace: true });
    expect(elsewhere).toMatchObject({ assigned: [], replaced: [`${ISSUER}/admin/settings/system/users#sign-in`] });
    const here = tab();
    await startSignIn(here.env, '/settings/system/users', { replace: true });
    expect(here.assigned).toEqual([]);
    expect(new URL(here.replaced[0]).pathname).toBe('/api/oauth/authorize');
  });

  it('returns only to pages of this interface', () => {
    expect(safeReturnTo('/settings/system/roles')).toBe('/settings/system/roles');
    for (const path of ['https://evil.test/', '//evil.test/', '/\\evil.test', '/callback', '/callback?code=x']) {
      expect(safeReturnTo(path)).toBe('/');
    }
  });
});

describe('completeSignIn', () => {
  it('redeems the code with the verifier and redirect URI of the sign-in this tab started', async () => {
    const { env, map } = tab();
    const request = await started(env);
    const pending = JSON.parse(map.get(PENDING_SIGN_IN_KEY)!) as Record<string, string>;
    const session = redeemer();
    const answer = new URLSearchParams({ code: 'c1', state: request.get('state')!, iss: ISSUER });
    expect(await completeSignIn(env, session, answer)).toEqual({ ok: true, returnTo: '/content/product' });
    expect(session.signInWithCode).toHaveBeenCalledWith('c1', pending.verifier, `${ISSUER}/admin/callback`);
    expect(map.size).toBe(0);
  });

  it('refuses a state this tab did not send, and a response arriving twice, without redeeming the code', async () => {
    const { env } = tab();
    const request = await started(env);
    const session = redeemer();
    const forged = new URLSearchParams({ code: 'c1', state: 'another', iss: ISSUER });
    const outcome = await completeSignIn(env, session, forged);
    expect(outcome).toMatchObject({ ok: false, message: expect.stringMatching(/did not start in this tab/) });
    const replayed = new URLSearchParams({ code: 'c1', state: request.get('state')!, iss: ISSUER });
    expect(await completeSignIn(env, session, replayed)).toMatchObject({ ok: false, returnTo: '/' });
    expect(session.signInWithCode).not.toHaveBeenCalled();
  });

  it('refuses a response from another issuer, or one without iss', async () => {
    for (const iss of ['https://other.test', undefined]) {
      const { env } = tab();
      const request = await started(env);
      const session = redeemer();
      const answer = new URLSearchParams({ code: 'c1', state: request.get('state')!, ...(iss ? { iss } : {}) });
      const outcome = await completeSignIn(env, session, answer);
      expect(outcome).toMatchObject({ ok: false, message: expect.stringMatching(/did not come from this service/) });
      expect(session.signInWithCode).not.toHaveBeenCalled();
    }
  });

  it('says a cancelled sign-in, and any other error, in words', async () => {
    const { env } = tab();
    const cancelled = new URLSearchParams({ error: 'access_denied', state: (await started(env)).get('state')! });
    expect(await completeSignIn(env, redeemer(), cancelled)).toEqual({
      ok: false,
      message: 'Sign-in was cancelled.',
      returnTo: '/content/product',
    });
    const scope = new URLSearchParams({
      error: 'invalid_scope',
      error_description: 'The scope names something that is not a permission.',
      state: (await started(env)).get('state')!,
    });
    expect(await completeSignIn(env, redeemer(), scope)).toMatchObject({
      message: 'The scope names something that is not a permission.',
    });
  });

  it('says so when the service refuses the code (expired, or used already)', async () => {
    const { env } = tab();
    const state = (await started(env)).get('state')!;
    const refused = vi.fn(() => Promise.reject(new ApiError(400, { error: 'invalid_grant' })));
    const outcome = await completeSignIn(
      env,
      redeemer(refused),
      new URLSearchParams({ code: 'c1', state, iss: ISSUER }),
    );
    expect(outcome).toMatchObject({ ok: false, message: 'The sign-in expired or was already used. Sign in again.' });
  });
});
