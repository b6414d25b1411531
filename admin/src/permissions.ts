import { useMe } from './account';

/** Whether a permission set grants `required` (`*` grants everything), as the service decides it. */
function grants(permissions: readonly string[] | undefined, required: string): boolean {
  return !!permissions && (permissions.includes('*') || permissions.includes(required));
}

/** One page of Settings › System: its menu label, where it is, and the permission its list needs. */
export interface Section {
  label: string;
  path: string;
  read: string;
}

export const SYSTEM_SECTIONS: readonly Section[] = [
  { label: 'Integrations', path: '/settings/system/integrations', read: 'integration:read' },
  { label: 'Applications', path: '/settings/system/applications', read: 'oauth-client:read' },
  { label: 'Roles', path: '/settings/system/roles', read: 'role:read' },
  { label: 'Users', path: '/settings/system/users', read: 'user:read' },
  // Every webhook route needs webhook:write: the service has no read-only view of them.
  { label: 'Webhooks', path: '/settings/system/webhooks', read: 'webhook:write' },
  { label: 'Audit log', path: '/settings/system/audit', read: 'audit:read' },
];

/** The signed-in account's permissions: `may` answers false until GET /api/me has answered. */
export function usePermissions() {
  const me = useMe();
  const held = me.data?.permissions;
  return { me, may: (permission: string) => grants(held, permission) };
}
