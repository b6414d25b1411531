import type { CatalogedPermission } from '../../../credentials/permission-catalog.js';

/**
 * Each permission in words, for the consent page: the permission catalog's description (what it opens where it is
 * checked), or, for one the service no longer checks, its name.
 */
export function permissionWords(
  catalog: readonly CatalogedPermission[],
  scope: readonly string[],
): Array<{ permission: string; words: string }> {
  const described = new Map(catalog.map((entry) => [entry.permission, entry.description]));
  return scope.map((permission) => ({ permission, words: described.get(permission) ?? permission }));
}
