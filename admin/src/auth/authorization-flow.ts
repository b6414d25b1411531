import type { Schemas } from '../api/client';
import { ApiError, messageOf } from '../api/problems';
import { codeChallenge, randomValue } from './pkce';
import { ADMIN_CLIENT_ID } from './session';

/** Where this interface is served, and its page that receives the authorization response (the client's one URI). */
const ADMIN_BASE = '/admin';
export const CALLBACK_PATH = '/callback';
/** The sign-in under way in this tab: its state, PKCE verifier, redirect URI and where to go afterwards. */
export const PENDING_SIGN_IN_KEY = 'admin.sign_in';
/** Added to a page's address when a sign-in started at another address continues at the issuer's (see startSignIn). */
export const CONTINUE_SIGN_IN_HASH = '#sign-in';

export type ServerMetadata = Pick<
  Schemas['AuthorizationServerMetadata'],
  'issuer' | 'authorization_endpoint' | 'authorization_response_iss_parameter_supported'
>;

type Storage = Pick<globalThis.Storage, 'getItem' | 'setItem' | 'removeItem'>;

export interface FlowEnvironment {
  storage: Storage;
  metadata(): Promise<ServerMetadata>;
  /** `replace`: for a sign-in nobody clicked for, so that Back does not come here only to be sent on again. */
  location: { origin: string; assign(url: string): void; replace(url: string): void };
}

interface PendingSignIn {
  state: string;
  verifier: string;
  redirectUri: string;
  returnTo: string;
}

/**
 * Starts the authorization code flow with PKCE: a fresh state and verifier kept for this tab, then the service's
 * sign-in page. The redirect URI is on the issuer's origin, the only one the service registers (compared by exact
 * string); the state and verifier must be kept on that origin too, as sessionStorage is per origin, so a page opened
 * at another address of the service first moves to the same page at the issuer's address, which continues from there.
 * `returnTo`: the page (under /admin) to show once signed in; `replace`: leave this page out of the tab's history.
 */
export async function startSignIn(env: FlowEnvironment, returnTo: string, { replace = false } = {}): Promise<void> {
  const go = (url: string) => (replace ? env.location.replace(url) : env.location.assign(url));
  const metadata = await env.metadata();
  const issuerOrigin = new URL(metadata.issuer).origin;
  if (issuerOrigin !== env.location.origin) {
    go(`${issuerOrigin}${ADMIN_BASE}${safeReturnTo(returnTo)}${CONTINUE_SIGN_IN_HASH}`);
    return;
  }
  const pending: PendingSignIn = {
    state: randomValue(),
    verifier: randomValue(),
    redirectUri: `${issuerOrigin}${ADMIN_BASE}${CALLBACK_PATH}`,
    returnTo: safeReturnTo(returnTo),
  };
  env.storage.setItem(PENDING_SIGN_IN_KEY, JSON.stringify(pending));
  const target = new URL(metadata.authorization_endpoint);
  // No scope: the token then carries everything the user's role grants, as this interface shows exactly that.
  const parameters = {
    response_type: 'code',
    client_id: ADMIN_CLIENT_ID,
    redirect_uri: pending.redirectUri,
    state: pending.state,
    code_challenge: await codeChallenge(pending.verifier),
    code_challenge_method: 'S256',
  };
  for (const [name, value] of Object.entries(parameters)) target.searchParams.set(name, value);
  go(target.href);
}

export type SignInOutcome = { ok: true; returnTo: string } | { ok: false; message: string; returnTo: string };

/** What completeSignIn needs of the session: redeeming the code. */
export interface CodeRedeemer {
  signInWithCode(code: string, verifier: string, redirectUri: string): Promise<void>;
}

/**
 * Completes the flow on the callback page with the authorization response's parameters: the state must be the one
 * this tab sent (else it is another sign-in's, or forged), `iss` the issuer (RFC 9207), then the code is redeemed
 * with the verifier. The pending sign-in is used once, whatever the outcome.
 */
export async function completeSignIn(
  env: Omit<FlowEnvironment, 'location'>,
  session: CodeRedeemer,
  parameters: URLSearchParams,
): Promise<SignInOutcome> {
  const pending = takePending(env.storage);
  const returnTo = pending?.returnTo ?? '/';
  const fail = (message: string): SignInOutcome => ({ ok: false, message, returnTo });
  const state = parameters.get('state');
  if (!pending || !state || state !== pending.state) {
    return fail('This sign-in did not start in this tab, or was already completed. Sign in again.');
  }
  const error = parameters.get('error');
  if (error === 'access_denied') return fail('Sign-in was cancelled.');
  if (error) return fail(parameters.get('error_description') ?? `Sign-in failed (${error}).`);
  try {
    const metadata = await env.metadata();
    const iss = parameters.get('iss');
    if (iss !== null ? iss !== metadata.issuer : metadata.authorization_response_iss_parameter_supported) {
      return fail('The sign-in answer did not come from this service. Sign in again.');
    }
    const code = parameters.get('code');
    if (!code) return fail('The sign-in answer carries no code. Sign in again.');
    await session.signInWithCode(code, pending.verifier, pending.redirectUri);
    return { ok: true, returnTo };
  } catch (failure) {
    if (failure instanceof ApiError && failure.body?.error === 'invalid_grant') {
      return fail('The sign-in expired or was already used. Sign in again.');
    }
    return fail(messageOf(failure));
  }
}

function takePending(storage: Storage): PendingSignIn | undefined {
  const stored = storage.getItem(PENDING_SIGN_IN_KEY);
  storage.removeItem(PENDING_SIGN_IN_KEY);
  if (!stored) return undefined;
  try {
    const value = JSON.parse(stored) as Partial<PendingSignIn>;
    const { state, verifier, redirectUri, returnTo } = value;
    if ([state, verifier, redirectUri, returnTo].every((field) => typeof field === 'string')) {
      return value as PendingSignIn;
    }
  } catch {
    // Not ours: as if there were none.
  }
  return undefined;
}

/** A path inside this interface: anything else (another site, the callback itself) is the landing page. */
export function safeReturnTo(path: string): string {
  if (!path.startsWith('/') || path.startsWith('//') || path.startsWith('/\\')) return '/';
  if (path === CALLBACK_PATH || path.startsWith(`${CALLBACK_PATH}?`)) return '/';
  return path;
}
