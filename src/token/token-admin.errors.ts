import { CatalogedError, type ErrorCatalog } from '@file-fields/nest';

export enum TokenAdminErrorCode {
  RoleNotFound = 'role-not-found',
  UserNotFound = 'user-not-found',
  IntegrationNotFound = 'integration-not-found',
  OAuthClientNotFound = 'oauth-client-not-found',
  GrantNotFound = 'grant-not-found',
  PublicClient = 'public-client',
  NameTaken = 'name-taken',
  RoleInUse = 'role-in-use',
  BuiltInRole = 'built-in-role',
  PrivilegeEscalation = 'privilege-escalation',
  LastAdministrator = 'last-administrator',
  NotAUser = 'not-a-user',
  WrongPassword = 'wrong-password',
  TooManyAttempts = 'too-many-attempts',
}

const TOKEN_ADMIN_ERRORS: ErrorCatalog<TokenAdminErrorCode> = {
  [TokenAdminErrorCode.RoleNotFound]: [404, 'Role not found'],
  [TokenAdminErrorCode.UserNotFound]: [404, 'User not found'],
  [TokenAdminErrorCode.IntegrationNotFound]: [404, 'Integration not found'],
  [TokenAdminErrorCode.OAuthClientNotFound]: [404, 'OAuth client not found'],
  [TokenAdminErrorCode.GrantNotFound]: [404, 'Grant not found'],
  [TokenAdminErrorCode.PublicClient]: [409, 'Public client'],
  [TokenAdminErrorCode.NameTaken]: [409, 'Name already taken'],
  [TokenAdminErrorCode.RoleInUse]: [409, 'Role in use'],
  [TokenAdminErrorCode.BuiltInRole]: [409, 'Built-in role'],
  [TokenAdminErrorCode.PrivilegeEscalation]: [403, 'Permissions not held'],
  [TokenAdminErrorCode.LastAdministrator]: [409, 'Last administrator'],
  [TokenAdminErrorCode.NotAUser]: [403, 'Not a user'],
  [TokenAdminErrorCode.WrongPassword]: [400, 'Wrong password'],
  [TokenAdminErrorCode.TooManyAttempts]: [429, 'Too many attempts'],
};

/** An error of the administration API (roles, users, integrations) and of the caller's own account. */
export class TokenAdminError extends CatalogedError<TokenAdminErrorCode> {
  constructor(code: TokenAdminErrorCode, detail: string) {
    super(TOKEN_ADMIN_ERRORS, code, detail);
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
