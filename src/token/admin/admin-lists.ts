import { listQueryOf } from '@file-fields/nest';
import { pageSchemaOf } from '@file-fields/nest';
import { sortValuesOf, type ListSpec } from '@file-fields/nest';
import { INTEGRATION_LIST, OAUTH_CLIENT_LIST, ROLE_LIST, USER_LIST } from '../repositories/list-specs.js';
import { IntegrationDto, RoleDto, UserDto } from './admin-views.dto.js';

/* The administration lists' contract: what `q` searches and what `sort` may name (repositories/list-specs.ts). */

const queryOf = (name: string, spec: ListSpec<never>, searchedIn: string) =>
  listQueryOf({ name, sorts: sortValuesOf(spec), defaultSort: spec.defaultSort, searchedIn });

export class IntegrationsQueryDto extends queryOf('Integration', INTEGRATION_LIST, 'label or access key id') {}
export class UsersQueryDto extends queryOf('User', USER_LIST, 'username') {}
export class RolesQueryDto extends queryOf('Role', ROLE_LIST, 'name') {}
export class OAuthClientsQueryDto extends queryOf('OAuthClient', OAUTH_CLIENT_LIST, 'name or client_id') {}

export const IntegrationPageDto = pageSchemaOf(IntegrationDto, 'Integration', 'A page of integrations');
export const UserPageDto = pageSchemaOf(UserDto, 'User', 'A page of users');
export const RolePageDto = pageSchemaOf(RoleDto, 'Role', 'A page of roles');
