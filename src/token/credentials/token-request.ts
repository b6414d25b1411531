import { OAuthError } from './oauth-error.js';

/** How the client presented itself (RFC 6749 §2.3). */
export interface ClientCredentials {
  clientId: string;
  clientSecret?: string;
  method: 'client_secret_basic' | 'client_secret_post' | 'none';
}

/** A token request, checked for shape: every parameter a single string. */
export interface TokenRequest {
  grantType: string;
  client: ClientCredentials;
  params: Readonly<Record<string, string>>;
}

/**
 * A revocation request (RFC 7009 §2.1). Its `token_type_hint` is read for shape only: every kind of token is looked
 * up whatever the hint says (§2.1 requires extending the search anyway), so no hint value is refused.
 */
export interface RevocationRequest {
  client: ClientCredentials;
  token: string;
}

const CLIENT = ['client_id', 'client_secret'];
const TOKEN_PARAMETERS = [
  'grant_type',
  ...CLIENT,
  'scope',
  'username',
  'password',
  'refresh_token',
  'code',
  'redirect_uri',
  'code_verifier',
];
const REVOCATION_PARAMETERS = ['token', 'token_type_hint', ...CLIENT];

/**
 * Reads a token request from its body (JSON or form) and Authorization header. Anything malformed is an
 * invalid_request (a broken Basic header is an invalid_client), never an exception of another kind.
 */
export function parseTokenRequest(body: unknown, authorization: string | undefined): TokenRequest {
  const params = readParameters(body, TOKEN_PARAMETERS);
  if (!params.grant_type) throw new OAuthError('invalid_request', 'The parameter grant_type is missing.');
  return { grantType: params.grant_type, client: readClient(params, authorization), params };
}

/** Reads a revocation request as {@link parseTokenRequest} reads a token request, with the same client rules. */
export function parseRevocationRequest(body: unknown, authorization: string | undefined): RevocationRequest {
  const params = readParameters(body, REVOCATION_PARAMETERS);
  if (!params.token) throw new OAuthError('invalid_request', 'The parameter token is missing.');
  return { client: readClient(params, authorization), token: params.token };
}

/** The parameters of `known` in a JSON or form body, each a single string; other parameters are ignored. */
function readParameters(body: unknown, known: readonly string[]): Record<string, string> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new OAuthError('invalid_request', 'The body must be a JSON object or a form.');
  }
  const params: Record<string, string> = {};
  for (const [name, value] of Object.entries(body as Record<string, unknown>)) {
    if (Array.isArray(value)) throw new OAuthError('invalid_request', `The parameter ${name} is repeated.`);
    if (!known.includes(name)) continue;
    if (typeof value !== 'string') throw new OAuthError('invalid_request', `The parameter ${name} must be a string.`);
    params[name] = value;
  }
  return params;
}

function readClient(params: Record<string, string>, authorization: string | undefined): ClientCredentials {
  const basic = authorization === undefined ? undefined : parseBasic(authorization);
  if (basic) {
    if (params.client_secret !== undefined || (params.client_id !== undefined && params.client_id !== basic.clientId)) {
      throw new OAuthError('invalid_request', 'Client credentials were sent both in the header and in the body.');
    }
    return { ...basic, method: 'client_secret_basic' };
  }
  if (!params.client_id) throw new OAuthError('invalid_request', 'The parameter client_id is missing.');
  if (params.client_secret !== undefined) {
    return { clientId: params.client_id, clientSecret: params.client_secret, method: 'client_secret_post' };
  }
  return { clientId: params.client_id, method: 'none' };
}

/** `Basic base64(urlencode(id):urlencode(secret))` (RFC 6749 §2.3.1). */
function parseBasic(header: string): { clientId: string; clientSecret: string } {
  const match = /^Basic +([A-Za-z0-9+/=._~-]+)$/i.exec(header.trim());
  if (!match) throw OAuthError.invalidClient('The Authorization header is not Basic client authentication.', true);
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 1) throw OAuthError.invalidClient('The Basic credentials are malformed.', true);
  let credentials: { clientId: string; clientSecret: string };
  try {
    const unescape = (part: string) => decodeURIComponent(part.replace(/\+/g, ' '));
    credentials = { clientId: unescape(decoded.slice(0, colon)), clientSecret: unescape(decoded.slice(colon + 1)) };
  } catch {
    throw OAuthError.invalidClient('The Basic credentials are not URL-encoded correctly.', true);
  }
  // As in any other input (a body, a URL): no client id or secret holds U+0000, which PostgreSQL cannot store.
  if (`${credentials.clientId}${credentials.clientSecret}`.includes('\u0000')) {
    throw OAuthError.invalidClient('The Basic credentials hold the character U+0000.', true);
  }
  return credentials;
}
