import { grants, isPermission } from '@file-fields/nest';
import { OAuthError } from './oauth-error.js';

// The permission format and `grants` live in common/auth, where other features check permissions too.
export { grants, isPermission };

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

/**
 * The permissions of `required` that `held` does not cover: empty when `held` has `*`; `*` itself is covered only by
 * `*`. This is the escalation rule of the administration API (as in Kubernetes RBAC): a principal grants, assigns or
 * touches only what it already holds.
 */
export function missingPermissions(held: readonly string[], required: readonly string[]): string[] {
  if (held.includes('*')) return [];
  return [...new Set(required)].filter((permission) => !held.includes(permission));
}

/** What both permission sets grant (`*` on one side leaves the other side as it is). */
export function intersectPermissions(a: readonly string[], b: readonly string[]): string[] {
  if (a.includes('*')) return [...b];
  if (b.includes('*')) return [...a];
  return a.filter((permission) => b.includes(permission));
}
