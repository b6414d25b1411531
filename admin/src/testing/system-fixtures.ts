import type { Schemas } from '../api/client';
import type { CatalogedPermission, Me } from '../account';

const at = '2026-01-02T03:04:05.000Z';

/** Fixtures of Settings › System's tests: roles, the signed-in account, the permission catalog. */
export const role = (id: number, name: string, permissions: string[], built_in = false): Schemas['Role'] => ({
  id,
  name,
  permissions,
  built_in,
  created_at: at,
  updated_at: at,
});

export const ROLES = [
  role(1, 'admin', ['*'], true),
  role(2, 'catalog-reader', ['product:read']),
  role(3, 'webhook-manager', ['webhook:read', 'webhook:write']),
];

export const me = (permissions: string[], id = 1): Me => ({
  kind: 'user',
  id,
  name: 'admin',
  role: { id: 1, name: 'admin' },
  permissions,
});

const entry = (permission: string, description: string): CatalogedPermission => {
  const [resource, access] = permission === '*' ? ['*', '*'] : permission.split(':');
  return { permission, resource, access: access as CatalogedPermission['access'], description };
};

export const CATALOG: CatalogedPermission[] = [
  entry('*', 'Every permission'),
  entry('product:read', 'Read product files'),
  entry('product:write', 'Create, change and delete product files'),
  entry('role:read', 'Read roles'),
  entry('role:write', 'Create, change and delete roles'),
  entry('webhook:read', 'Read webhooks'),
  entry('webhook:write', 'Create, change and delete webhooks'),
];

export const integration = (overrides: Partial<Schemas['Integration']> = {}): Schemas['Integration'] => ({
  id: 1,
  label: 'ERP',
  role: 'catalog-reader',
  access_key_id: 'FFIAQ3J5K7M2N4P6R7T2V4X6',
  active: true,
  last_used_at: null,
  previous_secret_expires_at: null,
  previous_secret_active: false,
  created_at: at,
  updated_at: at,
  expires_at: null,
  owner: null,
  ...overrides,
});

export const user = (id: number, username: string, roleName: string): Schemas['User'] => ({
  id,
  username,
  role: roleName,
  created_at: at,
  updated_at: at,
});

/** A request's JSON body. */
export const bodyOf = async (request: Request): Promise<Record<string, unknown>> =>
  (await request.json()) as Record<string, unknown>;

/** A list's answer holding `items`, all of them on its first page. */
export const pageOf = <T>(items: T[]) => ({ items, total: items.length, limit: 20, offset: 0 });
