import { Module, type OnModuleInit } from '@nestjs/common';
import { SettingsModule } from '../config/config.module.js';
import { errorFormats } from '../common/errors/error-formats.js';
import { DiscoveryModule } from '@nestjs/core';
import { JwtModule } from '@nestjs/jwt';
import { PassportModule } from '@nestjs/passport';
import { AuditModule } from '../audit/index.js';
import { tokenRepositories } from './repositories/token-repositories.js';
import { SigningKeysRepository } from './repositories/signing-keys.repository.js';
import { AccessTokensService } from './issuing/access-tokens.service.js';
import { oauthErrorFormat } from './credentials/oauth-error.js';
import { OAUTH_REVOCATION_PATH, OAUTH_TOKEN_PATH } from './credentials/oauth-paths.js';
import { AdminBootstrapService } from './admin/users/admin-bootstrap.service.js';
import { AccountController } from './account/account.controller.js';
import { CurrentAccountService } from './account/current-account.service.js';
import { PasswordChangeService } from './account/password-change.service.js';
import { GrantsController } from './account/grants/grants.controller.js';
import { OAuthGrantsRepository } from './repositories/oauth-grants.repository.js';
import { OAuthGrantsService } from './account/grants/oauth-grants.service.js';
import { IntegrationsController } from './admin/integrations/integrations.controller.js';
import { IntegrationsService } from './admin/integrations/integrations.service.js';
import { OAuthClientsController } from './admin/oauth-clients/oauth-clients.controller.js';
import { OAuthClientsRepository } from './repositories/oauth-clients.repository.js';
import { OAuthClientsService } from './admin/oauth-clients/oauth-clients.service.js';
import { PermissionCatalog } from './credentials/permission-catalog.service.js';
import { PermissionsController } from './admin/permissions/permissions.controller.js';
import { RolesController } from './admin/roles/roles.controller.js';
import { RolesService } from './admin/roles/roles.service.js';
import { UsersController } from './admin/users/users.controller.js';
import { UsersService } from './admin/users/users.service.js';
import { AccessGuard } from './auth/access.guard.js';
import { BearerStrategy } from './auth/bearer.strategy.js';
import { PasswordHasher } from './crypto/password-hasher.js';
import { AuthorizationClients } from './clients/authorization-clients.js';
import { AuthorizationCodesRepository } from './repositories/authorization-codes.repository.js';
import { AuthorizationCodesService } from './issuing/authorization-codes.service.js';
import { AuthorizationEndpoint } from './endpoints/authorize/authorization-endpoint.service.js';
import { AuthorizationController } from './endpoints/authorize/authorization.controller.js';
import { SignInForm } from './endpoints/authorize/pages/sign-in-form.js';
import { CodeIssuance } from './endpoints/authorize/code-issuance.js';
import { Consent } from './endpoints/authorize/consent.js';
import { SignInInteraction } from './endpoints/authorize/sign-in-interaction.js';
import { AuthorizationCodeGrant } from './grants/authorization-code.grant.js';
import { ClientCredentialsGrant } from './grants/client-credentials.grant.js';
import { UserCredentials } from './grants/user-credentials.js';
import { IntegrationClients } from './clients/integration-clients.js';
import { PasswordGrant } from './grants/password.grant.js';
import { RefreshTokenGrant } from './grants/refresh-token.grant.js';
import { RefreshTokensService } from './issuing/refresh-tokens.service.js';
import { SigningKeysService } from './issuing/signing-keys.service.js';
import { SubjectStatusService } from './revocation/subject-status.service.js';
import { SubjectPermissions } from '../common/auth/subject-permissions.js';
import { RolePermissions } from './auth/role-permissions.service.js';
import { TokenController } from './endpoints/token/token.controller.js';
import { DiscoveryController } from './endpoints/discovery/discovery.controller.js';
import { TokenEndpointService } from './endpoints/token/token-endpoint.service.js';
import { TokenFailureLimiter } from './limits/token-failure-limiter.js';
import { TokenRevocationService } from './endpoints/token/token-revocation.service.js';
import { DatabaseModule } from '../database/database.module.js';
import { SecretsModule } from '../secrets/index.js';
import { tokenConfig } from './token.config.js';
import { tokenSchema } from './token.schema.js';

/**
 * OAuth 2.0 token and authorization endpoints, integrations, users, roles, the permission catalog, the caller's own account, and the
 * global access guard.
 */
@Module({
  imports: [
    SettingsModule.forFeature(tokenConfig),
    DatabaseModule.forFeature(tokenSchema),
    SecretsModule,
    JwtModule.register({}),
    PassportModule,
    DiscoveryModule,
    AuditModule,
  ],
  controllers: [
    TokenController,
    DiscoveryController,
    AuthorizationController,
    IntegrationsController,
    OAuthClientsController,
    RolesController,
    UsersController,
    PermissionsController,
    AccountController,
    GrantsController,
  ],
  providers: [
    ...tokenRepositories,
    SigningKeysService,
    AccessTokensService,
    SubjectStatusService,
    RefreshTokensService,
    PasswordHasher,
    TokenFailureLimiter,
    IntegrationClients,
    UserCredentials,
    OAuthClientsRepository,
    OAuthClientsService,
    OAuthGrantsRepository,
    OAuthGrantsService,
    AuthorizationClients,
    AuthorizationCodesRepository,
    AuthorizationCodesService,
    SignInForm,
    SignInInteraction,
    Consent,
    CodeIssuance,
    AuthorizationEndpoint,
    AuthorizationCodeGrant,
    ClientCredentialsGrant,
    PasswordGrant,
    RefreshTokenGrant,
    TokenEndpointService,
    TokenRevocationService,
    RolesService,
    UsersService,
    IntegrationsService,
    PermissionCatalog,
    CurrentAccountService,
    PasswordChangeService,
    AdminBootstrapService,
    BearerStrategy,
    AccessGuard,
    { provide: SubjectPermissions, useClass: RolePermissions },
  ],
  exports: [AccessGuard, SubjectPermissions, SigningKeysRepository],
})
export class TokenModule implements OnModuleInit {
  /** The token and revocation endpoints answer their errors as RFC 6749 bodies, body parser failures included. */
  onModuleInit(): void {
    for (const path of [OAUTH_TOKEN_PATH, OAUTH_REVOCATION_PATH]) errorFormats.register(path, oauthErrorFormat);
  }
}
