/**
 * The file-field framework's public surface: everything another module or NestJS application uses comes from here.
 */
export { FileFieldsModule, type FileFieldsAsyncOptions } from './file-fields.module.js';
export type { FileFieldsOptions } from './fields/file-fields.options.js';
export { fileFieldsOptionsFrom, filesConfig, type FilesConfig } from './files.config.js';
export {
  AttachmentType,
  FileField,
  type AttachmentTypeOptions,
  type FileFieldOptions,
} from './fields/file-field.decorator.js';
export type { ImageVariantOptions } from './images/options/image-options.js';
export { FileRecord } from './records/file-record.entity.js';
export { FileRecordDto } from './records/file-record.dto.js';
export { FileFieldRegistry } from './fields/file-field.registry.js';
export { documentFileFields } from './fields/file-fields.openapi.js';
export { FileStorage, type ByteRange, type StoredObject } from './storage/file-storage.js';
export { storageFaultReason } from './errors/files.errors.js';
export { LocalDiskStorage } from './storage/local-disk.storage.js';
export type { S3StorageOptions } from './storage/s3.storage.js';
export {
  FILE_EVENT_KINDS,
  FileEventPublisher,
  type FileEvent,
  type FileEventKind,
  type FileEventTransaction,
} from './events/file-event-publisher.js';
export {
  FILE_ACTIVITIES,
  FileActivityLog,
  type FileActivity,
  type FileActivityAction,
} from './events/file-activity-log.js';
export { OrphanSweeper } from './orphans/orphan-sweeper.js';
export { OrphanSweepSchedule } from './orphans/orphan-sweep.schedule.js';
export { FileUrls } from './urls/file-urls.js';
export { FileVariantSource, type StoredVariant } from './urls/file-variant-source.js';
export { filesSchema as fileFieldsSchema } from './files.schema.js';
