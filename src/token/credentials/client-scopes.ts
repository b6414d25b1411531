import { grants, intersectPermissions, isPermission } from './scopes.js';

/** A client's ceiling and default scope, as the authorization endpoint needs them. */
export interface ScopedClient {
  scopes: readonly string[];
  defaultScopes: readonly string[] | null;
}

/** What a request without `scope` asks of `client`: its default scope, never outside its ceiling. */
export function defaultScopesOf(client: ScopedClient): string[] {
  return client.defaultScopes ? intersectPermissions(client.defaultScopes, client.scopes) : [...client.scopes];
}

/** The scope refused, and why (the authorization endpoint answers it as invalid_scope). */
export class ScopeRefused extends Error {
  constructor(readonly description: string) {
    super(description);
    this.name = 'ScopeRefused';
  }
}

/**
 * What a code may carry: the ceiling ∩ what is asked (`requested`, or the client's default scope when it is empty) ∩
 * what the user holds now. A permission asked for by name outside the ceiling, or not held by the user, is refused;
 * a default scope is narrowed to what the user holds. Nothing left is refused too: a token granting nothing is no use.
 */
export function grantableScope(requested: string, client: ScopedClient, held: readonly string[]): string[] {
  let asked: string[];
  if (requested.trim() === '') {
    asked = intersectPermissions(defaultScopesOf(client), held);
  } else {
    asked = [...new Set(requested.trim().split(/ +/))];
    const outside = asked.filter((scope) => !isPermission(scope) || !grants(client.scopes, scope));
    if (outside.length > 0) throw new ScopeRefused(`Not allowed to this client: ${outside.join(' ')}`);
    const notHeld = asked.filter((scope) => !grants(held, scope));
    if (notHeld.length > 0) throw new ScopeRefused(`Not granted by your role: ${notHeld.join(' ')}`);
  }
  if (asked.length === 0) throw new ScopeRefused('Nothing this client may ask for is granted by your role.');
  return asked;
}

/** Whether a remembered consent covers every permission of `scope`. */
export function consentCovers(consented: readonly string[], scope: readonly string[]): boolean {
  return scope.every((permission) => grants(consented, permission));
}
