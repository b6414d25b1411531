import { Module } from '@nestjs/common';
import { DatabaseModule } from '../database/database.module.js';
import { AppConfig } from '../config/environment.js';
import { WebhookFileEvents } from '../webhooks/webhook-file-events.js';
import { WebhooksModule } from '../webhooks/webhooks.module.js';
import { AttachmentOwners } from './attachment-owners.js';
import { OrphanSweepSchedule } from './orphans/orphan-sweep.schedule.js';
import { OrphanSweeper } from './orphans/orphan-sweeper.js';
import { FileCleanupSubscriber } from './file-cleanup.subscriber.js';
import { FileFieldRegistry } from './file-field.registry.js';
import { filesSchema } from './files.schema.js';
import { FileEventPublisher } from './events/file-event-publisher.js';
import { FileRecordsRepository } from './file-records.repository.js';
import { FilesController } from './files.controller.js';
import { FilesService } from './files.service.js';
import { FileChangesService } from './file-changes.service.js';
import { FileContentService } from './file-content.service.js';
import { FileFieldResolver } from './resolution/file-field.resolver.js';
import { ResolveFileFieldsInterceptor } from './resolution/resolve-file-fields.interceptor.js';
import { FileStorage } from './storage/file-storage.js';
import { createStorage } from './storage/create-storage.js';
import { MultipartReceiver } from './upload/multipart-receiver.js';
import { UploadSlots } from './upload/upload-slots.js';

/** File fields: the upload endpoint, the registry of declared fields, resolution on responses, cleanup. */
@Module({
  imports: [DatabaseModule.forFeature(filesSchema), WebhooksModule],
  controllers: [FilesController],
  providers: [
    { provide: FileStorage, inject: [AppConfig], useFactory: createStorage },
    FileFieldRegistry,
    { provide: FileEventPublisher, useExisting: WebhookFileEvents },
    AttachmentOwners,
    FileRecordsRepository,
    FilesService,
    FileChangesService,
    FileContentService,
    MultipartReceiver,
    UploadSlots,
    FileFieldResolver,
    ResolveFileFieldsInterceptor,
    FileCleanupSubscriber,
    OrphanSweeper,
    OrphanSweepSchedule,
  ],
  exports: [FilesService, FileFieldResolver, ResolveFileFieldsInterceptor, FileStorage, OrphanSweeper],
})
export class FilesModule {}
