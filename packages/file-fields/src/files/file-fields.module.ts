import {
  Module,
  type DynamicModule,
  type ModuleMetadata,
  type OnApplicationShutdown,
  type Provider,
  type Type,
} from '@nestjs/common';
import { getDataSourceToken, TypeOrmModule } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { UnitOfWork } from '../database/unit-of-work.js';
import { ServedTypesModule, type ServedTypesOptions } from '../entity-routes/entity-routes.module.js';
import { ReadCache } from '../read-cache/index.js';
import { AttachmentOwners } from './fields/attachment-owners.js';
import { AttachmentTypes } from './fields/attachment-types.service.js';
import { AttachmentOwnersRepository } from './fields/attachment-owners.repository.js';
import { FileEventPublisher, NoFileEvents } from './events/file-event-publisher.js';
import { FileActivityLog, NoFileActivityLog } from './events/file-activity-log.js';
import { FileCleanupSubscriber } from './changes/file-cleanup.subscriber.js';
import { FileChangesService } from './changes/file-changes.service.js';
import { FileContentService } from './access/file-content.service.js';
import { FileFieldRegistry } from './fields/file-field.registry.js';
import {
  FILE_FIELDS_OPTIONS,
  resolveFileFieldsOptions,
  type FileFieldsOptions,
  type ResolvedFileFieldsOptions,
} from './fields/file-fields.options.js';
import { FileRecord } from './records/file-record.entity.js';
import { FileRecordsRepository } from './records/file-records.repository.js';
import { FilesController } from './files.controller.js';
import { FilesService } from './attach/files.service.js';
import { OrphanSweepSchedule } from './orphans/orphan-sweep.schedule.js';
import { OrphanSweeper } from './orphans/orphan-sweeper.js';
import { FileFieldResolver } from './resolution/file-field.resolver.js';
import { FileFieldResolutionModule } from './resolution/file-field-resolution.module.js';
import { ResolveFileFieldsInterceptor } from './resolution/resolve-file-fields.interceptor.js';
import { FileStorage } from '../storage/file-storage.js';
import { IMAGE_PROVIDERS } from './images/image-providers.js';
import { INTAKE_PROVIDERS } from './intake/intake-providers.js';
import { FileUrls } from './urls/file-urls.js';
import { ImageVariantSource } from './images/variants/image-variant-source.js';
import { FileVariantSource } from './urls/file-variant-source.js';
import { SignedFileContent } from './urls/signed-file-content.js';
import { SignedFilesController } from './urls/signed-files.controller.js';
import { FileUploadsController } from './upload/file-uploads.controller.js';
import { TRANSPORT_PROVIDERS } from './transports/transport-providers.js';
import { ResumableUpload } from './transports/resumable/state/resumable-upload.entity.js';
import { UploadResourcesController } from './upload/upload-resources.controller.js';
import { DirectUpload } from './transports/direct/direct-upload.entity.js';
import { DirectUploadsController } from './transports/direct/direct-uploads.controller.js';

/** `forRootAsync`: options from other providers, and optionally where change events go. */
export interface FileFieldsAsyncOptions extends Pick<ModuleMetadata, 'imports'> {
  inject?: Array<Type | string | symbol>;
  useFactory: (...args: never[]) => FileFieldsOptions | Promise<FileFieldsOptions>;
  /** A provider of {@link FileEventPublisher} that `imports` export (e.g. a webhook outbox); none: no events. */
  eventPublisher?: Type<FileEventPublisher>;
  /** A {@link FileActivityLog} built here from what `imports` export (e.g. an audit trail); none: nothing recorded. */
  activityLog?: Type<FileActivityLog>;
}

const PARTS: Provider[] = [
  UnitOfWork,
  FileFieldRegistry,
  AttachmentTypes,
  AttachmentOwners,
  AttachmentOwnersRepository,
  FileRecordsRepository,
  FilesService,
  FileChangesService,
  FileContentService,
  ...IMAGE_PROVIDERS,
  ...INTAKE_PROVIDERS,
  ...TRANSPORT_PROVIDERS,
  FileFieldResolver,
  {
    provide: ReadCache,
    inject: [getDataSourceToken(), FILE_FIELDS_OPTIONS, FileUrls],
    // Kept answers carry signed file URLs: they last one URL window.
    useFactory: (dataSource: DataSource, options: ResolvedFileFieldsOptions, urls: FileUrls) =>
      new ReadCache(dataSource, options.readCacheBytes, () => urls.window().start),
  },
  // Bound by FileFieldResolutionModule to the handlers that may answer with file fields, whichever module they are in.
  ResolveFileFieldsInterceptor,
  FileCleanupSubscriber,
  OrphanSweeper,
  OrphanSweepSchedule,
  FileUrls,
  SignedFileContent,
  { provide: FileVariantSource, useClass: ImageVariantSource },
  {
    provide: FileStorage,
    inject: [FILE_FIELDS_OPTIONS],
    useFactory: (options: ResolvedFileFieldsOptions) => options.storage,
  },
];

/**
 * The file-field framework: `@FileField()` properties of any TypeORM entity of the application become uploadable
 * (`POST /files/{type}/{id}/{field}`), readable and deletable by id, and resolved to file records in every response.
 * The application registers `FileRecord` with its DataSource and runs `fileFieldsMigrations`; callers are read from
 * `req.user` (`{ subject, scopes }`, as a passport strategy sets it): a file's routes need `<type>:read|write`.
 */
@Module({})
export class FileFieldsModule implements OnApplicationShutdown {
  constructor(private readonly storage: FileStorage) {}

  /**
   * Closes the storage. NestJS calls a module's own hook after those of its providers, so the orphan sweep that may
   * still be using the storage has finished by then.
   */
  async onApplicationShutdown(): Promise<void> {
    await this.storage.close();
  }

  /**
   * Standard routes for entity types: list (a page with `q` and `sort`), read, create, update and delete, with
   * validation, permissions `<type>:read|write` and OpenAPI operations. Import it where the types belong, once per set.
   */
  static forFeature(options: ServedTypesOptions): DynamicModule {
    return ServedTypesModule.forTypes(options);
  }

  static forRoot(options: FileFieldsOptions): DynamicModule {
    return FileFieldsModule.forRootAsync({ useFactory: () => options });
  }

  static forRootAsync(options: FileFieldsAsyncOptions): DynamicModule {
    return {
      module: FileFieldsModule,
      // One instance per application: its storage is what the health check probes, wherever that lives.
      global: true,
      imports: [
        TypeOrmModule.forFeature([FileRecord, ResumableUpload, DirectUpload]),
        FileFieldResolutionModule,
        ...(options.imports ?? []),
      ],
      // In this order: `GET /files/fields` is matched before `GET /files/:id`, and the direct uploads' routes before
      // the upload route, which would take `direct-uploads/{id}/complete` for a field.
      controllers: [
        DirectUploadsController,
        FileUploadsController,
        UploadResourcesController,
        FilesController,
        SignedFilesController,
      ],
      providers: [
        {
          provide: FILE_FIELDS_OPTIONS,
          inject: options.inject ?? [],
          useFactory: async (...args: never[]) => resolveFileFieldsOptions(await options.useFactory(...args)),
        },
        options.eventPublisher
          ? { provide: FileEventPublisher, useExisting: options.eventPublisher }
          : { provide: FileEventPublisher, useClass: NoFileEvents },
        { provide: FileActivityLog, useClass: options.activityLog ?? NoFileActivityLog },
        ...PARTS,
      ],
      exports: [FileStorage, OrphanSweeper, FileUrls, ReadCache],
    };
  }
}
