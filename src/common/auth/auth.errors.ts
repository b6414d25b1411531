import { DomainError } from '../errors/domain-error.js';

const REALM = 'file-fields';

/** 401 for a missing, malformed, expired or revoked bearer token (RFC 6750 §3.1). */
export class InvalidTokenError extends DomainError {
  readonly status = 401;
  readonly code = 'invalid-token';
  readonly title = 'Invalid access token';

  constructor(detail: string) {
    super(detail);
    this.headers['WWW-Authenticate'] =
      `Bearer realm="${REALM}", error="invalid_token", error_description="${detail.replace(/"/g, "'")}"`;
  }
}

/** 403 for a valid token whose scope lacks the permission the route needs. */
export class InsufficientScopeError extends DomainError {
  readonly status = 403;
  readonly code = 'insufficient-scope';
  readonly title = 'Insufficient scope';

  constructor(readonly permission: string) {
    super(`This request needs the permission "${permission}".`);
    this.headers['WWW-Authenticate'] = `Bearer realm="${REALM}", error="insufficient_scope", scope="${permission}"`;
    this.extensions.required_permission = permission;
  }
}
