import type { ErrorFormat } from '../../common/errors/error-formats.js';

/** RFC 6749 §5.2 error codes of the token endpoint (the revocation endpoint answers a subset, RFC 7009 §2.2.1). */
export type OAuthErrorCode =
  | 'invalid_request'
  | 'invalid_client'
  | 'invalid_grant'
  | 'unauthorized_client'
  | 'unsupported_grant_type'
  | 'invalid_scope'
  | 'temporarily_unavailable';

/** An error of the token or revocation endpoint, answered as `{ error, error_description }`, never as a problem. */
export class OAuthError extends Error {
  readonly headers: Record<string, string> = {};

  constructor(
    readonly error: OAuthErrorCode,
    readonly description: string,
    readonly status = error === 'invalid_client' ? 401 : 400,
  ) {
    super(description);
    this.name = 'OAuthError';
  }

  /** RFC 6749 §5.2: a client that authenticated with Basic gets a Basic challenge back. */
  static invalidClient(description: string, usedBasic: boolean): OAuthError {
    const error = new OAuthError('invalid_client', description, 401);
    if (usedBasic) error.headers['WWW-Authenticate'] = 'Basic realm="oauth", charset="UTF-8"';
    return error;
  }
}

/** Too many failed attempts: 429 with Retry-After, in the RFC 6749 error shape. */
export class TooManyAttemptsError extends OAuthError {
  constructor(retryAfterSeconds: number) {
    super('invalid_request', `Too many failed attempts; retry after ${retryAfterSeconds} s.`, 429);
    this.headers['Retry-After'] = String(retryAfterSeconds);
  }
}

/** The service cannot take the request now (e.g. too many password checks at once): 503 with Retry-After. */
export class TemporarilyUnavailableError extends OAuthError {
  constructor(description: string, retryAfterSeconds: number) {
    super('temporarily_unavailable', description, 503);
    this.headers['Retry-After'] = String(retryAfterSeconds);
  }
}

/** The OAuth error of any error raised at those endpoints, body parser failures included. */
function asOAuthError(exception: unknown): OAuthError | undefined {
  if (exception instanceof OAuthError) return exception;
  const status =
    (exception as { status?: unknown; getStatus?: () => number })?.getStatus?.() ??
    (exception as { status?: unknown })?.status;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    return new OAuthError('invalid_request', 'The request body could not be read.', status === 413 ? 413 : 400);
  }
  return undefined;
}

/**
 * The token and revocation endpoints' errors as RFC 6749 §5.2 bodies, never stored by a cache; anything else stays a
 * problem.
 */
export const oauthErrorFormat: ErrorFormat = (exception) => {
  const error = asOAuthError(exception);
  if (!error) return undefined;
  return {
    status: error.status,
    headers: { ...error.headers, 'Cache-Control': 'no-store', Pragma: 'no-cache' },
    body: { error: error.error, error_description: error.description },
  };
};
