import { Module } from '@nestjs/common';
import { ClockModule } from '../../common/clock.js';
import { AppConfigModule } from '../../config/config.module.js';
import { AppConfig } from '../../config/environment.js';
import { DatabaseModule } from '../../database/database.module.js';
import { FileFieldRegistry } from '../file-field.registry.js';
import { filesSchema } from '../files.schema.js';
import { FileRecordsRepository } from '../file-records.repository.js';
import {
  FILE_FIELDS_OPTIONS,
  resolveFileFieldsOptions,
  type ResolvedFileFieldsOptions,
} from '../file-fields.options.js';
import { fileFieldsOptionsFrom } from '../files.module.js';
import { FileStorage } from '../storage/file-storage.js';
import { OrphanSweeper } from './orphan-sweeper.js';

const resolvedOptionsFrom = async (config: AppConfig) => resolveFileFieldsOptions(await fileFieldsOptionsFrom(config));

/** Just what a sweep needs, without the HTTP layer or the background schedule (for `npm run sweep-orphans`). */
@Module({
  imports: [AppConfigModule, ClockModule, DatabaseModule, DatabaseModule.forFeature(filesSchema)],
  providers: [
    { provide: FILE_FIELDS_OPTIONS, inject: [AppConfig], useFactory: resolvedOptionsFrom },
    {
      provide: FileStorage,
      inject: [FILE_FIELDS_OPTIONS],
      useFactory: (options: ResolvedFileFieldsOptions) => options.storage,
    },
    FileFieldRegistry,
    FileRecordsRepository,
    OrphanSweeper,
  ],
})
export class SweepCliModule {}
