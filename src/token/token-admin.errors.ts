import { DomainError } from '../common/errors/domain-error.js';

export enum TokenAdminErrorCode {
  RoleNotFound = 'role-not-found',
  UserNotFound = 'user-not-found',
  IntegrationNotFound = 'integration-not-found',
  NameTaken = 'name-taken',
  RoleInUse = 'role-in-use',
  BuiltInRole = 'built-in-role',
  PrivilegeEscalation = 'privilege-escalation',
  LastAdministrator = 'last-administrator',
}

/** An error of the administration API (roles, users, integrations). */
export class TokenAdminError extends DomainError {
  private static readonly catalog: Record<TokenAdminErrorCode, [number, string]> = {
    [TokenAdminErrorCode.RoleNotFound]: [404, 'Role not found'],
    [TokenAdminErrorCode.UserNotFound]: [404, 'User not found'],
    [TokenAdminErrorCode.IntegrationNotFound]: [404, 'Integration not found'],
    [TokenAdminErrorCode.NameTaken]: [409, 'Name already taken'],
    [TokenAdminErrorCode.RoleInUse]: [409, 'Role in use'],
    [TokenAdminErrorCode.BuiltInRole]: [409, 'Built-in role'],
    [TokenAdminErrorCode.PrivilegeEscalation]: [403, 'Permissions not held'],
    [TokenAdminErrorCode.LastAdministrator]: [409, 'Last administrator'],
  };

  readonly status: number;
  readonly title: string;

  constructor(
    readonly code: TokenAdminErrorCode,
    detail: string,
  ) {
    super(detail);
    [this.status, this.title] = TokenAdminError.catalog[code];
  }
}

/** 404 for a role, user or integration id that names nothing. */
export function notFound(kind: 'role' | 'user' | 'integration', id: number): TokenAdminError {
  const codes = {
    role: TokenAdminErrorCode.RoleNotFound,
    user: TokenAdminErrorCode.UserNotFound,
    integration: TokenAdminErrorCode.IntegrationNotFound,
  };
  const noun = kind[0].toUpperCase() + kind.slice(1);
  return new TokenAdminError(codes[kind], `${noun} ${id} does not exist.`);
}
