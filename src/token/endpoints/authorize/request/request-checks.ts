import type { AuthorizationClient } from '../../../clients/authorization-clients.js';
import { isPermission } from '../../../credentials/scopes.js';
import {
  AUTHORIZATION_PARAMETERS,
  AuthorizationPageError,
  AuthorizationRedirectError,
  type AuthorizationRequest,
} from './authorization-request.js';

/** BASE64URL(SHA-256(verifier)): 32 bytes, 43 characters without padding. */
const S256_CHALLENGE = /^[A-Za-z0-9_-]{43}$/;
const MAX_STATE_LENGTH = 1000;
const MAX_SCOPE_LENGTH = 2000;

/** An authorization request's parameters, from the query or the posted form. */
class RequestParameters {
  private readonly raw: Record<string, unknown>;

  constructor(input: unknown) {
    this.raw = (typeof input === 'object' && input !== null ? input : {}) as Record<string, unknown>;
  }

  /** The parameter's value if it was given once; a repeated one (an array) counts as missing. */
  single(name: string): string | undefined {
    const value = this.raw[name];
    return typeof value === 'string' ? value : undefined;
  }

  /** The first parameter of the protocol's that was given more than once, or not as text. */
  repeated(): string | undefined {
    return AUTHORIZATION_PARAMETERS.find((name) => this.raw[name] !== undefined && typeof this.raw[name] !== 'string');
  }
}

/** Refuses the request with an error sent back to the client's redirect URI. */
type Refuse = (error: AuthorizationRedirectError['error'], description: string) => never;

/** One check made once the client and its redirect URI are known good: it refuses, or lets the request on. */
type RequestCheck = (parameters: RequestParameters, refuse: Refuse) => void;

/** The client the request names; until it is known, an error is a page. */
function checkClient(
  parameters: RequestParameters,
  findClient: (clientId: string) => AuthorizationClient | undefined,
): AuthorizationClient {
  const clientId = parameters.single('client_id');
  if (!clientId) throw new AuthorizationPageError('The request names no client (client_id is missing or repeated).');
  const client = findClient(clientId);
  if (!client) throw new AuthorizationPageError('The request names an unknown client.');
  return client;
}

/** The redirect URI, exactly one registered for the client (RFC 9700 §4.1.3); until it is known, an error is a page. */
function checkRedirectUri(parameters: RequestParameters, client: AuthorizationClient): string {
  const redirectUri = parameters.single('redirect_uri');
  if (!redirectUri || !client.redirectUris.includes(redirectUri)) {
    throw new AuthorizationPageError(`The redirect URI is not one registered for ${client.name}.`);
  }
  return redirectUri;
}

/**
 * The state to send back. An over-long one never is, whatever else is wrong with the request: the client gets
 * invalid_request without it (a state is the client's own value; echoing a huge one lets a request grow the redirect
 * at will).
 */
function echoedState(parameters: RequestParameters): string | undefined {
  const given = parameters.single('state');
  return given !== undefined && given.length <= MAX_STATE_LENGTH ? given : undefined;
}

const checkState: RequestCheck = (parameters, refuse) => {
  if (parameters.single('state') !== undefined && echoedState(parameters) === undefined) {
    refuse('invalid_request', `The state is longer than ${MAX_STATE_LENGTH} characters.`);
  }
};

const checkNothingRepeated: RequestCheck = (parameters, refuse) => {
  const repeated = parameters.repeated();
  if (repeated) refuse('invalid_request', `The parameter ${repeated} is repeated or malformed.`);
};

const checkResponseType: RequestCheck = (parameters, refuse) => {
  const responseType = parameters.single('response_type');
  if (!responseType) return refuse('invalid_request', 'The parameter response_type is missing.');
  if (responseType !== 'code') refuse('unsupported_response_type', 'Only response_type=code is supported.');
};

/** Only `S256` PKCE is accepted (RFC 9700 §2.1.1): a missing method would mean `plain`. */
const checkPkce: RequestCheck = (parameters, refuse) => {
  const codeChallenge = parameters.single('code_challenge');
  if (!codeChallenge) return refuse('invalid_request', 'PKCE is required: the parameter code_challenge is missing.');
  if (parameters.single('code_challenge_method') !== 'S256') {
    refuse('invalid_request', 'code_challenge_method must be S256 (plain is not supported).');
  }
  if (!S256_CHALLENGE.test(codeChallenge)) {
    refuse('invalid_request', 'The code_challenge is not a base64url SHA-256 digest (43 characters).');
  }
};

/** The scope's words must name permissions; whether the client and the person may have them is decided at issuance. */
const checkScope: RequestCheck = (parameters, refuse) => {
  const scope = scopeOf(parameters);
  if (scope.length > MAX_SCOPE_LENGTH || (scope !== '' && !scope.split(/ +/).every(isPermission))) {
    refuse('invalid_scope', 'The scope names something that is not a permission.');
  }
};

/** The checks after the client and redirect URI, in order: the first to fail answers. */
const REQUEST_CHECKS: readonly RequestCheck[] = [
  checkState,
  checkNothingRepeated,
  checkResponseType,
  checkPkce,
  checkScope,
];

/**
 * Checks an authorization request (RFC 6749 §4.1.1 with PKCE, RFC 7636 §4.3). The client and the redirect URI first:
 * until both are known good, an error is an {@link AuthorizationPageError}; after, an
 * {@link AuthorizationRedirectError}.
 */
export function parseAuthorizationRequest(
  input: unknown,
  findClient: (clientId: string) => AuthorizationClient | undefined,
): AuthorizationRequest {
  const parameters = new RequestParameters(input);
  const client = checkClient(parameters, findClient);
  const redirectUri = checkRedirectUri(parameters, client);
  const state = echoedState(parameters);
  const refuse: Refuse = (error, description) => {
    throw new AuthorizationRedirectError(error, description, redirectUri, state);
  };
  for (const check of REQUEST_CHECKS) check(parameters, refuse);
  const codeChallenge = parameters.single('code_challenge')!;
  return { client, redirectUri, scope: scopeOf(parameters), state, codeChallenge };
}

function scopeOf(parameters: RequestParameters): string {
  return (parameters.single('scope') ?? '').trim();
}
