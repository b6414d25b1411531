import { isPermission } from '../issuing/scopes.js';
import type { AuthorizationClient } from './authorization-clients.js';

/** An authorization request (RFC 6749 §4.1.1 with PKCE, RFC 7636 §4.3), checked. */
export interface AuthorizationRequest {
  client: AuthorizationClient;
  redirectUri: string;
  /** Space-separated permissions; empty: the client's default scope. */
  scope: string;
  state?: string;
  codeChallenge: string;
}

/** The parameters an authorization request carries, in the query or in the sign-in form. */
export const AUTHORIZATION_PARAMETERS = [
  'response_type',
  'client_id',
  'redirect_uri',
  'scope',
  'state',
  'code_challenge',
  'code_challenge_method',
] as const;

/** The client or its redirect URI cannot be trusted: shown on a page, never redirected (RFC 6749 §4.1.2.1). */
export class AuthorizationPageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AuthorizationPageError';
  }
}

/** An error sent back to the client at its redirect URI (RFC 6749 §4.1.2.1). */
export class AuthorizationRedirectError extends Error {
  constructor(
    readonly error: 'invalid_request' | 'unsupported_response_type' | 'invalid_scope' | 'access_denied',
    readonly description: string,
    readonly redirectUri: string,
    readonly state: string | undefined,
  ) {
    super(description);
    this.name = 'AuthorizationRedirectError';
  }
}

/** BASE64URL(SHA-256(verifier)): 32 bytes, 43 characters without padding. */
const S256_CHALLENGE = /^[A-Za-z0-9_-]{43}$/;
const MAX_STATE_LENGTH = 1000;
const MAX_SCOPE_LENGTH = 2000;

/**
 * Checks an authorization request. The client and the redirect URI first: until both are known good, an error is an
 * {@link AuthorizationPageError}; after, an {@link AuthorizationRedirectError}. Only `S256` PKCE is accepted (RFC 9700
 * §2.1.1): a missing method would mean `plain`.
 */
export function parseAuthorizationRequest(
  input: unknown,
  findClient: (clientId: string) => AuthorizationClient | undefined,
): AuthorizationRequest {
  const raw = (typeof input === 'object' && input !== null ? input : {}) as Record<string, unknown>;
  const single = (name: string) => (typeof raw[name] === 'string' ? raw[name] : undefined);
  const clientId = single('client_id');
  if (!clientId) throw new AuthorizationPageError('The request names no client (client_id is missing or repeated).');
  const client = findClient(clientId);
  if (!client) throw new AuthorizationPageError('The request names an unknown client.');
  const redirectUri = single('redirect_uri');
  if (!redirectUri || !client.redirectUris.includes(redirectUri)) {
    throw new AuthorizationPageError(`The redirect URI is not one registered for ${client.name}.`);
  }
  const given = single('state');
  // An over-long state is never sent back, whatever else is wrong with the request: the client gets invalid_request
  // without it (a state is the client's own value; echoing a huge one lets a request grow the redirect at will).
  const state = given !== undefined && given.length <= MAX_STATE_LENGTH ? given : undefined;
  const refuse = (error: AuthorizationRedirectError['error'], description: string) => {
    throw new AuthorizationRedirectError(error, description, redirectUri, state);
  };
  if (given !== undefined && state === undefined) {
    refuse('invalid_request', `The state is longer than ${MAX_STATE_LENGTH} characters.`);
  }
  const repeated = AUTHORIZATION_PARAMETERS.find((name) => raw[name] !== undefined && typeof raw[name] !== 'string');
  if (repeated) refuse('invalid_request', `The parameter ${repeated} is repeated or malformed.`);
  const responseType = single('response_type');
  if (!responseType) refuse('invalid_request', 'The parameter response_type is missing.');
  if (responseType !== 'code') refuse('unsupported_response_type', 'Only response_type=code is supported.');
  const codeChallenge = single('code_challenge');
  if (!codeChallenge) refuse('invalid_request', 'PKCE is required: the parameter code_challenge is missing.');
  if (single('code_challenge_method') !== 'S256') {
    refuse('invalid_request', 'code_challenge_method must be S256 (plain is not supported).');
  }
  if (!S256_CHALLENGE.test(codeChallenge!)) {
    refuse('invalid_request', 'The code_challenge is not a base64url SHA-256 digest (43 characters).');
  }
  const scope = (single('scope') ?? '').trim();
  if (scope.length > MAX_SCOPE_LENGTH || (scope !== '' && !scope.split(/ +/).every(isPermission))) {
    refuse('invalid_scope', 'The scope names something that is not a permission.');
  }
  return { client, redirectUri, scope, state, codeChallenge: codeChallenge! };
}

/** The request as the parameters of the sign-in form, to be checked again when it is posted. */
export function authorizationParameters(request: AuthorizationRequest): Record<string, string> {
  return {
    response_type: 'code',
    client_id: request.client.clientId,
    redirect_uri: request.redirectUri,
    ...(request.scope ? { scope: request.scope } : {}),
    ...(request.state !== undefined ? { state: request.state } : {}),
    code_challenge: request.codeChallenge,
    code_challenge_method: 'S256',
  };
}

/** The redirect URI with the response parameters added (RFC 6749 §4.1.2), and `iss` (RFC 9207). */
export function redirectTo(redirectUri: string, parameters: Record<string, string | undefined>): string {
  const url = new URL(redirectUri);
  for (const [name, value] of Object.entries(parameters)) {
    if (value !== undefined) url.searchParams.append(name, value);
  }
  return url.toString();
}
