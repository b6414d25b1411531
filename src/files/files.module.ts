import { Module } from '@nestjs/common';
import { AppConfig } from '../config/environment.js';
import { DatabaseModule } from '../database/database.module.js';
import { WebhookFileEvents } from '../webhooks/webhook-file-events.js';
import { WebhooksModule } from '../webhooks/webhooks.module.js';
import { FileFieldsModule } from './file-fields.module.js';
import type { FileFieldsOptions } from './file-fields.options.js';
import { filesSchema } from './files.schema.js';
import { createStorage } from './storage/create-storage.js';

/** This service's file-field settings, from its environment (STORAGE_DRIVER, MAX_FILE_SIZE, ORPHAN_*, …). */
export async function fileFieldsOptionsFrom(config: AppConfig): Promise<FileFieldsOptions> {
  return {
    storage: await createStorage(config),
    maxFileSize: config.maxFileSize,
    uploadsPerPrincipal: config.uploadsPerPrincipal,
    orphanGraceMs: config.orphanGraceMs,
    orphanSweepIntervalMs: config.orphanSweepIntervalMs,
  };
}

/** The file-field framework as this service uses it: configured from the environment, changes sent as webhooks. */
@Module({
  imports: [
    DatabaseModule.forFeature(filesSchema),
    FileFieldsModule.forRootAsync({
      imports: [WebhooksModule],
      inject: [AppConfig],
      useFactory: fileFieldsOptionsFrom,
      eventPublisher: WebhookFileEvents,
    }),
  ],
  exports: [FileFieldsModule],
})
export class FilesModule {}
