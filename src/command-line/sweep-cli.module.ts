import { Module } from '@nestjs/common';
import { AppConfigModule, SettingsModule } from '../config/config.module.js';
import { DatabaseModule } from '../database/database.module.js';
import { FileFieldsModule, fileFieldsSchema } from '@file-fields/nest';
import { fileFieldsOptionsFrom, filesConfig, type FilesConfig } from '../files/index.js';

/** What a sweep needs (`npm run sweep-orphans`): the framework on the service's settings, with its HTTP parts idle. */
@Module({
  imports: [
    AppConfigModule,
    DatabaseModule,
    DatabaseModule.forFeature(fileFieldsSchema),
    FileFieldsModule.forRootAsync({
      imports: [SettingsModule.forFeature(filesConfig)],
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
