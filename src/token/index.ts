/**
 * The TokenModule's public surface: everything another module or the application root uses comes from here.
 */
export { TokenModule } from './token.module.js';
export { TokenCliModule } from './token-cli.module.js';
export { AccessGuard } from './auth/access.guard.js';
export { IntegrationsService } from './admin/integrations.service.js';
export { RolesService } from './admin/roles.service.js';
// The command line validates a role it creates exactly as POST /api/roles does.
export { CreateRoleDto } from './admin/admin.dto.js';
export { UsersService } from './admin/users.service.js';
export { SigningKeysService } from './signing-keys.service.js';
// Other features apply the administration API's escalation rule to what they let a principal change (webhooks).
export { assertHolds } from './admin/grant-policy.js';
export { intersectPermissions } from './scopes.js';
export { tokenConfig, type TokenConfig } from './token.config.js';
export { OAUTH_TOKEN_PATH } from './oauth-error.js';
export { tokenSchema } from './token.schema.js';
export { PASSWORD_MIN_LENGTH, PASSWORD_TOO_SHORT } from './account-rules.js';
