import { isPermission } from '@file-fields/nest';
import type { PermissionUse } from '@file-fields/nest';

/** What a role may hold, as the role editor's picker offers it. */
export interface CatalogedPermission {
  permission: string;
  /** `product`, `role`…; `*` for the permission `*`. */
  resource: string;
  access: 'read' | 'write' | '*';
  description: string;
}

/** `*`: what the built-in `admin` role holds. */
export const EVERY_PERMISSION: CatalogedPermission = Object.freeze({
  permission: '*',
  resource: '*',
  access: '*',
  description: 'Every permission, also those the service gains later (the built-in admin role)',
});

/**
 * The permissions the service checks, each once, `*` first and the others by name, each described by what it opens
 * where it is checked. A permission no role could hold (not `<resource>:<read|write>`) is a bug in a route: it
 * throws, so the service does not start with it.
 */
export function buildPermissionCatalog(uses: readonly PermissionUse[]): CatalogedPermission[] {
  const byPermission = new Map<string, PermissionUse[]>();
  for (const use of uses) {
    if (use.permission === '*') continue;
    if (!isPermission(use.permission)) {
      throw new Error(`"${use.permission}" (${use.subject}) is not a permission a role can hold`);
    }
    byPermission.set(use.permission, [...(byPermission.get(use.permission) ?? []), use]);
  }
  const names = [...byPermission.keys()].sort((a, b) => (a < b ? -1 : 1));
  return [EVERY_PERMISSION, ...names.map((name) => cataloged(name, byPermission.get(name)!))];
}

function cataloged(permission: string, uses: readonly PermissionUse[]): CatalogedPermission {
  const [resource, access] = permission.split(':') as [string, 'read' | 'write'];
  const subjects = inWords([...new Set(uses.map((use) => use.subject))]);
  const readsToo = uses.some((use) => use.method === 'GET');
  const verb = access === 'read' ? 'Read' : readsToo ? 'Read and manage' : 'Create, change and delete';
  return { permission, resource, access, description: `${verb} ${subjects}` };
}

/** `a`, `a and b`, `a, b and c`. */
function inWords(items: readonly string[]): string {
  return items.length < 2 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}
