import type { ListSpec } from '@file-fields/nest';
import type { Integration } from './entities/integration.entity.js';
import type { OAuthClient } from './entities/oauth-client.entity.js';
import type { Role } from './entities/role.entity.js';
import type { User } from './entities/user.entity.js';

/*
 * The administration lists: what `q` searches and what `sort` may name, once for the query (repositories) and the
 * contract (these query classes). The default is the order they had before they were paged.
 */

export const INTEGRATION_LIST: ListSpec<Integration> = {
  search: ['label', 'accessKeyId'],
  sorts: { id: 'id', label: 'label', created_at: 'createdAt', last_used_at: 'lastUsedAt' },
  defaultSort: 'id',
};

export const USER_LIST: ListSpec<User> = {
  search: ['username'],
  sorts: { id: 'id', username: 'username', created_at: 'createdAt' },
  defaultSort: 'id',
};

export const ROLE_LIST: ListSpec<Role> = {
  search: ['name'],
  sorts: { id: 'id', name: 'name', created_at: 'createdAt' },
  defaultSort: 'id',
};

/** The API does not show an OAuth client's row id: its creation time gives the same order. */
export const OAUTH_CLIENT_LIST: ListSpec<OAuthClient> = {
  search: ['name', 'clientId'],
  sorts: { created_at: 'createdAt', name: 'name' },
  defaultSort: 'created_at',
};
