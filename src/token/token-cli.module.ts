import { Module } from '@nestjs/common';
import { ClockModule } from '../common/clock.js';
import { AppConfigModule } from '../config/config.module.js';
import { DatabaseModule } from '../database/database.module.js';
import { IntegrationsService } from './admin/integrations.service.js';
import { RolesService } from './admin/roles.service.js';
import { UsersService } from './admin/users.service.js';
import { PasswordHasher } from './crypto/password-hasher.js';
import { SubjectStatusService } from './subject-status.service.js';
import { tokenSchema } from './token.schema.js';

/** What the command line needs to manage users and integrations, without the HTTP layer. */
@Module({
  imports: [AppConfigModule, ClockModule, DatabaseModule, DatabaseModule.forFeature(tokenSchema)],
  providers: [RolesService, UsersService, IntegrationsService, SubjectStatusService, PasswordHasher],
})
export class TokenCliModule {}
