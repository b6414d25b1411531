import { Module } from '@nestjs/common';
import { AuditRecordingModule } from '../audit/index.js';
import { ClockModule } from '@file-fields/nest';
import { AppConfigModule, SettingsModule } from '../config/config.module.js';
import { DatabaseModule } from '../database/database.module.js';
import { SecretsModule } from '../secrets/index.js';
import { RedisModule } from '../redis/index.js';
import { tokenRepositories } from './repositories/token-repositories.js';
import { SigningKeysRepository } from './repositories/signing-keys.repository.js';
import { IntegrationsService } from './admin/integrations/integrations.service.js';
import { RolesService } from './admin/roles/roles.service.js';
import { UsersService } from './admin/users/users.service.js';
import { PasswordHasher } from './crypto/password-hasher.js';
import { SigningKeysService } from './issuing/signing-keys.service.js';
import { SubjectStatusService } from './revocation/subject-status.service.js';
import { tokenConfig } from './token.config.js';
import { tokenSchema } from './token.schema.js';

/** What the command line needs to manage users, integrations and signing keys, without the HTTP layer. */
@Module({
  imports: [
    AppConfigModule,
    SettingsModule.forFeature(tokenConfig),
    ClockModule,
    DatabaseModule,
    DatabaseModule.forFeature(tokenSchema),
    SecretsModule,
    // Changes made here (a password reset, a disabled integration) reach the running instances at once.
    RedisModule,
    // Every change made here is recorded, as actor `cli`.
    AuditRecordingModule,
  ],
  providers: [
    ...tokenRepositories,
    SigningKeysService,
    RolesService,
    UsersService,
    IntegrationsService,
    SubjectStatusService,
    PasswordHasher,
  ],
  exports: [SigningKeysRepository],
})
export class TokenCliModule {}
