import { OAuthError } from '../common/errors/oauth-error.js';

const PERMISSION = /^(\*|[a-z][a-z0-9_-]{0,63}:(read|write))$/;

/** Whether a string is a permission: `<resource>:<read|write>` or `*`. */
export function isPermission(value: string): boolean {
  return PERMISSION.test(value);
}

/** Whether a permission set grants `required` (`*` grants everything). */
export function grants(permissions: readonly string[], required: string): boolean {
  return permissions.includes('*') || permissions.includes(required);
}

/**
 * The scope a token gets: what was asked for, if the role grants all of it (else invalid_scope), or, when nothing was
 * asked for, everything the role grants.
 */
export function grantedScope(requested: string | undefined, permissions: readonly string[]): string {
  if (requested === undefined || requested.trim() === '') return permissions.join(' ');
  const asked = [...new Set(requested.trim().split(/ +/))];
  const refused = asked.filter((scope) => !isPermission(scope) || !grants(permissions, scope));
  if (refused.length > 0)
    throw new OAuthError('invalid_scope', `Not granted by the client's role: ${refused.join(' ')}`);
  return asked.join(' ');
}
