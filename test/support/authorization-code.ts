import * as client from 'openid-client';

/** The administration interface's redirect URI on a service at `url`. */
export const adminRedirect = (url: string) => `${url}/admin/callback`;

/** What GET or POST /api/oauth/authorize answered, read as a browser would see it. */
export interface AuthorizeAnswer {
  status: number;
  headers: Headers;
  html: string;
  /** The redirect, when there is one. */
  location?: URL;
  /** The hidden fields of the sign-in form (the request and its CSRF token). */
  hidden: Record<string, string>;
  /** The sign-in cookie the page set, as a Cookie header. */
  cookie?: string;
}

/** A PKCE pair made by openid-client. */
export async function pkce(): Promise<{ verifier: string; challenge: string }> {
  const verifier = client.randomPKCECodeVerifier();
  return { verifier, challenge: await client.calculatePKCECodeChallenge(verifier) };
}

/** The authorization URL of the administration client with `params` on top (undefined removes one). */
export function authorizeUrl(url: string, params: Record<string, string | undefined>): URL {
  const target = new URL('/api/oauth/authorize', url);
  const all = { response_type: 'code', client_id: 'administration', redirect_uri: adminRedirect(url), ...params };
  for (const [name, value] of Object.entries(all)) if (value !== undefined) target.searchParams.set(name, value);
  return target;
}

const unescape = (text: string) =>
  text.replace(
    /&(amp|lt|gt|quot|#39);/g,
    (_all, name: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" })[name]!,
  );

async function read(res: Response, base: string): Promise<AuthorizeAnswer> {
  const html = await res.text();
  const hidden: Record<string, string> = {};
  for (const match of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) {
    hidden[unescape(match[1])] = unescape(match[2]);
  }
  const setCookie = res.headers.get('set-cookie');
  const location = res.headers.get('location');
  return {
    status: res.status,
    headers: res.headers,
    html,
    hidden,
    location: location ? new URL(location, base) : undefined,
    cookie: setCookie ? setCookie.split(';')[0] : undefined,
  };
}

/** Opens the authorization URL without following a redirect. */
export async function openAuthorize(target: URL, cookie?: string): Promise<AuthorizeAnswer> {
  const res = await fetch(target, { redirect: 'manual', headers: cookie ? { cookie } : {} });
  return read(res, target.href);
}

/** Posts the sign-in form of `page` with `fields` (the page's hidden fields first; undefined removes one); `cookie` empty: none. */
export async function submitSignIn(
  url: string,
  page: AuthorizeAnswer,
  fields: Record<string, string | undefined>,
  cookie: string | undefined = page.cookie,
): Promise<AuthorizeAnswer> {
  const form = new URLSearchParams();
  for (const [name, value] of Object.entries({ ...page.hidden, action: 'sign-in', ...fields })) {
    if (value !== undefined) form.set(name, value);
  }
  const res = await fetch(new URL('/api/oauth/authorize', url), {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...(cookie ? { cookie } : {}) },
    body: form,
  });
  return read(res, url);
}

/** Presses Allow (or Deny) on a consent page; `cookie`: the sign-in cookie of the browser. */
export function submitConsent(
  url: string,
  page: AuthorizeAnswer,
  action: 'allow' | 'deny' | undefined,
  cookie: string | undefined,
  fields: Record<string, string | undefined> = {},
): Promise<AuthorizeAnswer> {
  return submitSignIn(url, page, { action, ...fields }, cookie);
}

/**
 * Signs in on the page of `target` and answers where the service sent the browser back. A registered application's
 * consent page, if one comes, is allowed (suites about consent itself drive it with submitSignIn and submitConsent).
 */
export async function signInAt(url: string, target: URL, username: string, password: string): Promise<URL> {
  const page = await openAuthorize(target);
  if (page.status !== 200) throw new Error(`The sign-in page answered ${page.status}`);
  let answer = await submitSignIn(url, page, { username, password });
  if (answer.status === 200 && answer.hidden.consent_token) {
    answer = await submitConsent(url, answer, 'allow', answer.cookie ?? page.cookie);
  }
  if (answer.status !== 303 || !answer.location) throw new Error(`The sign-in answered ${answer.status}`);
  return answer.location;
}

/** A code for the administration client, and the verifier to redeem it with. */
export async function authorizationCode(
  url: string,
  username: string,
  password: string,
  params: Record<string, string | undefined> = {},
): Promise<{ code: string; verifier: string }> {
  const { verifier, challenge } = await pkce();
  const target = authorizeUrl(url, { code_challenge: challenge, code_challenge_method: 'S256', ...params });
  const back = await signInAt(url, target, username, password);
  const code = back.searchParams.get('code');
  if (!code) throw new Error(`No code came back: ${back.href}`);
  return { code, verifier };
}

/** The token request redeeming a code, as a form body. */
export function redeemBody(url: string, code: string, verifier: string, extra: Record<string, string> = {}) {
  return {
    grant_type: 'authorization_code',
    client_id: 'administration',
    code,
    redirect_uri: adminRedirect(url),
    code_verifier: verifier,
    ...extra,
  };
}
