import { Module } from '@nestjs/common';
import { ConfigModule } from '@nestjs/config';
import { AppConfigModule } from '../../config/config.module.js';
import { DatabaseModule } from '../../database/database.module.js';
import { FileFieldsModule } from '../file-fields.module.js';
import { fileFieldsOptionsFrom, filesConfig, type FilesConfig } from '../files.config.js';
import { filesSchema } from '../files.schema.js';

/** What a sweep needs (`npm run sweep-orphans`): the framework on the service's settings, with its HTTP parts idle. */
@Module({
  imports: [
    AppConfigModule,
    DatabaseModule,
    DatabaseModule.forFeature(filesSchema),
    FileFieldsModule.forRootAsync({
      imports: [ConfigModule.forFeature(filesConfig)],
      inject: [filesConfig.KEY],
      // The sweep runs once, by hand (with --dry-run, nothing may be removed): no background sweep.
      useFactory: async (config: FilesConfig) => ({
        ...(await fileFieldsOptionsFrom(config)),
        sweepOrphansInBackground: false,
      }),
    }),
  ],
})
export class SweepCliModule {}
