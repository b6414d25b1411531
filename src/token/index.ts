/**
 * The TokenModule's public surface: everything another module or the application root uses comes from here.
 */
export { TokenModule } from './token.module.js';
export { TokenCliModule } from './token-cli.module.js';
export { AccessGuard } from './auth/access.guard.js';
export { IntegrationsService } from './admin/integrations/integrations.service.js';
export { RolesService } from './admin/roles/roles.service.js';
// The command line validates a role it creates exactly as POST /api/roles does.
export { CreateRoleDto } from './admin/admin.dto.js';
export { UsersService } from './admin/users/users.service.js';
export { SigningKeysService } from './issuing/signing-keys.service.js';
// The webhooks' Ed25519 keys are a key ring of their own in the same table.
export { KeyRing, type LoadedSigningKey } from './issuing/key-ring.js';
export { SigningKeysRepository } from './repositories/signing-keys.repository.js';
export { JsonWebKeySetSchema } from './endpoints/discovery/discovery.schemas.js';
export { IsPrepublish } from './token.config.js';
// Other features apply the administration API's escalation rule to what they let a principal change (webhooks).
export { assertHolds } from './admin/permissions/grant-policy.js';
export { intersectPermissions } from './credentials/scopes.js';
export { tokenConfig, type TokenConfig } from './token.config.js';
export { OAUTH_TOKEN_PATH } from './credentials/oauth-paths.js';
export { PASSWORD_MIN_LENGTH, PASSWORD_TOO_SHORT } from './account-rules.js';
