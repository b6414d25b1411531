import { Module } from '@nestjs/common';
import { ConfigModule } from '@nestjs/config';
import { APP_FILTER, APP_GUARD, APP_PIPE } from '@nestjs/core';
import { LoggerModule } from 'nestjs-pino';
import { AuditModule } from './audit/index.js';
import { CatalogModule } from './catalog/index.js';
import { ClockModule } from './common/clock.js';
import { ProblemDetailsFilter } from './common/errors/problem-details.filter.js';
import { loggerParams } from './common/logging.js';
import { createValidationPipe } from './common/pipes/validation.js';
import { AppConfigModule } from './config/config.module.js';
import { AppConfig } from './config/environment.js';
import { DatabaseModule } from './database/database.module.js';
import { FileFieldsModule, fileFieldsOptionsFrom, fileFieldsSchema, filesConfig } from './files/index.js';
import { HealthModule } from './health/index.js';
import { RedisModule } from './redis/redis.module.js';
import { AccessGuard, TokenModule } from './token/index.js';
import { WebhookFileEvents, WebhooksModule } from './webhooks/index.js';

@Module({
  imports: [
    AppConfigModule,
    ClockModule,
    LoggerModule.forRootAsync({ inject: [AppConfig], useFactory: loggerParams }),
    DatabaseModule,
    AuditModule,
    RedisModule,
    TokenModule,
    WebhooksModule,
    DatabaseModule.forFeature(fileFieldsSchema),
    // The file-field framework on this service's settings; its changes go out as webhooks.
    FileFieldsModule.forRootAsync({
      imports: [ConfigModule.forFeature(filesConfig), WebhooksModule],
      inject: [filesConfig.KEY],
      useFactory: fileFieldsOptionsFrom,
      eventPublisher: WebhookFileEvents,
    }),
    CatalogModule,
    HealthModule,
  ],
  providers: [
    { provide: APP_FILTER, useClass: ProblemDetailsFilter },
    { provide: APP_GUARD, useExisting: AccessGuard },
    { provide: APP_PIPE, useFactory: () => createValidationPipe() },
  ],
})
export class AppModule {}
