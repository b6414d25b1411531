import { DomainError } from '../errors/domain-error.js';

const REALM = 'file-fields';

/** RFC 6750 §3: a scope token is %x21 / %x23-5B / %x5D-7E (no space, quote or backslash, nothing outside ASCII). */
const SCOPE_TOKEN = /^[\x21\x23-\x5b\x5d-\x7e]+$/;
/** RFC 6750 §3: error_description holds %x20-21 / %x23-5B / %x5D-7E; anything else is dropped. */
const NOT_DESCRIPTION = /[^\x20\x21\x23-\x5b\x5d-\x7e]/g;

/**
 * A Bearer challenge (RFC 6750 §3) whose values cannot break the header: a scope token outside the RFC's character
 * set (one derived from a URL may hold anything) is left out, and the description keeps only its allowed characters.
 * Node refuses a header with a CR, LF or a character beyond Latin-1, which would turn the answer into a 500.
 */
export function bearerChallenge(
  error: string,
  { description, scopes = [] }: { description?: string; scopes?: readonly string[] },
): string {
  const attributes = [`realm="${REALM}"`, `error="${error}"`];
  if (description !== undefined) {
    attributes.push(`error_description="${description.replace(/"/g, "'").replace(NOT_DESCRIPTION, '')}"`);
  }
  const tokens = scopes.filter((scope) => SCOPE_TOKEN.test(scope));
  if (tokens.length > 0) attributes.push(`scope="${tokens.join(' ')}"`);
  return `Bearer ${attributes.join(', ')}`;
}

/** 401 for a missing, malformed, expired or revoked bearer token (RFC 6750 §3.1). */
export class InvalidTokenError extends DomainError {
  readonly status = 401;
  readonly code = 'invalid-token';
  readonly title = 'Invalid access token';

  constructor(detail: string) {
    super(detail);
    this.headers['WWW-Authenticate'] = bearerChallenge('invalid_token', { description: detail });
  }
}

/** 403 for a valid token whose scope lacks the permission the route needs. */
export class InsufficientScopeError extends DomainError {
  readonly status = 403;
  readonly code = 'insufficient-scope';
  readonly title = 'Insufficient scope';

  constructor(readonly permission: string) {
    super(`This request needs the permission "${permission}".`);
    this.headers['WWW-Authenticate'] = bearerChallenge('insufficient_scope', { scopes: [permission] });
    this.extensions.required_permission = permission;
  }
}
