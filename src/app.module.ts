import { Module } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_PIPE } from '@nestjs/core';
import { AuditModule } from './audit/index.js';
import { AuditedFileActivity } from './audited-file-activity.js';
import { BackgroundJobsModule } from './background-jobs/background-jobs.module.js';
import { CATALOG, CatalogModule } from './catalog/index.js';
import { ClockModule, FileFieldsModule, fileFieldsSchema, type FileFieldsOptions } from '@file-fields/nest';
import { ProblemDetailsFilter } from './common/errors/problem-details.filter.js';
import { BodyParsingGuard } from './common/http/body-parsing.guard.js';
import { createValidationPipe } from '@file-fields/nest';
import { AppConfigModule, SettingsModule } from './config/config.module.js';
import { AppConfig } from './config/environment.js';
import { DatabaseModule } from './database/database.module.js';
import { fileFieldsOptionsFrom, filesConfig, type FilesConfig } from './files/index.js';
import { HealthModule } from './health/index.js';
import { RedisModule } from './redis/index.js';
import { deriveSecretsKey } from './secrets/index.js';
import { AccessGuard, tokenConfig, TokenModule, type TokenConfig } from './token/index.js';
import { WebhookFileEvents, WebhooksModule } from './webhooks/index.js';

/**
 * The framework's options from the files settings; file URLs are absolute on the service's public URL (the issuer,
 * as in the OpenAPI document) and signed with a key of their own, derived from SECRETS_KEY.
 */
async function serviceFileFieldsOptions(
  files: FilesConfig,
  token: TokenConfig,
  app: AppConfig,
): Promise<FileFieldsOptions> {
  return {
    ...(await fileFieldsOptionsFrom(files)),
    publicUrl: token.issuer,
    urlSigningKey: deriveSecretsKey('file-urls', app),
  };
}

@Module({
  imports: [
    AppConfigModule,
    ClockModule,
    DatabaseModule,
    AuditModule,
    RedisModule,
    TokenModule,
    WebhooksModule,
    DatabaseModule.forFeature(fileFieldsSchema),
    // The file-field framework on this service's settings; its changes go out as webhooks and into the audit trail.
    FileFieldsModule.forRootAsync({
      imports: [
        SettingsModule.forFeature(filesConfig),
        SettingsModule.forFeature(tokenConfig),
        WebhooksModule,
        AuditModule,
      ],
      inject: [filesConfig.KEY, tokenConfig.KEY, AppConfig],
      useFactory: serviceFileFieldsOptions,
      eventPublisher: WebhookFileEvents,
      activityLog: AuditedFileActivity,
    }),
    CatalogModule.forRoot(CATALOG),
    HealthModule,
    // The timers of every periodic task (retention, sweeps, key reloads, the delivery poll).
    BackgroundJobsModule,
  ],
  providers: [
    { provide: APP_FILTER, useClass: ProblemDetailsFilter },
    { provide: APP_GUARD, useExisting: AccessGuard },
    // After the access guard: no body is read for a request it refuses.
    { provide: APP_GUARD, useClass: BodyParsingGuard },
    { provide: APP_PIPE, useFactory: () => createValidationPipe() },
  ],
})
export class AppModule {}
