import type { Integration } from '../entities/integration.entity.js';
import type { Role } from '../entities/role.entity.js';
import type { User } from '../entities/user.entity.js';

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

export function roleView(role: Role) {
  return {
    id: role.id,
    name: role.name,
    permissions: role.permissions,
    built_in: role.builtIn,
    created_at: role.createdAt,
    updated_at: role.updatedAt,
  };
}

export function userView(user: User, roleName: string) {
  return {
    id: user.id,
    username: user.username,
    role: roleName,
    created_at: user.createdAt,
    updated_at: user.updatedAt,
  };
}

/** An integration as the API shows it: never its secret (except `secret_access_key` right after creation or rotation). */
export function integrationView(integration: Integration, roleName: string, secret?: string) {
  return {
    id: integration.id,
    label: integration.label,
    role: roleName,
    access_key_id: integration.accessKeyId,
    ...(secret ? { secret_access_key: secret } : {}),
    active: integration.active,
    last_used_at: iso(integration.lastUsedAt),
    previous_secret_expires_at: iso(integration.previousSecretExpiresAt),
    created_at: integration.createdAt,
    updated_at: integration.updatedAt,
  };
}
