import type { AuthorizationClient } from '../../../clients/authorization-clients.js';

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
