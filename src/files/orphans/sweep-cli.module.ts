import { Module } from '@nestjs/common';
import { ClockModule } from '../../common/clock.js';
import { AppConfigModule } from '../../config/config.module.js';
import { AppConfig } from '../../config/environment.js';
import { DatabaseModule } from '../../database/database.module.js';
import { FileFieldRegistry } from '../file-field.registry.js';
import { filesSchema } from '../files.schema.js';
import { FileRecordsRepository } from '../file-records.repository.js';
import { createStorage } from '../storage/create-storage.js';
import { FileStorage } from '../storage/file-storage.js';
import { OrphanSweeper } from './orphan-sweeper.js';

/** Just what a sweep needs, without the HTTP layer or the background schedule (for `npm run sweep-orphans`). */
@Module({
  imports: [AppConfigModule, ClockModule, DatabaseModule, DatabaseModule.forFeature(filesSchema)],
  providers: [
    { provide: FileStorage, inject: [AppConfig], useFactory: createStorage },
    FileFieldRegistry,
    FileRecordsRepository,
    OrphanSweeper,
  ],
})
export class SweepCliModule {}
