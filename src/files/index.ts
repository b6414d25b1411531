/**
 * The file-field framework's public surface: everything another module or NestJS application uses comes from here.
 * `@public` marks what a host application imports (docs/file-fields.md) though nothing in this service does, so that
 * the unused-export check (knip) keeps it.
 */
/** @public */
export { FileFieldsModule, type FileFieldsAsyncOptions } from './file-fields.module.js';
export type { FileFieldsOptions } from './fields/file-fields.options.js';
export { fileFieldsOptionsFrom, filesConfig, type FilesConfig } from './files.config.js';
/** @public */
export {
  AttachmentType,
  FileField,
  getAttachmentType,
  getCollectionPath,
  type AttachmentTypeOptions,
  type FileFieldOptions,
} from './fields/file-field.decorator.js';
/** @public */
export type { ImageVariantOptions } from './images/options/image-options.js';
/** @public */
export { FileRecord } from './records/file-record.entity.js';
export { FileRecordDto } from './records/file-record.dto.js';
export { FileFieldRegistry } from './fields/file-field.registry.js';
export { documentFileFields } from './fields/file-fields.openapi.js';
export {
  FILE_EVENT_KINDS,
  FileEventPublisher,
  type FileEvent,
  type FileEventKind,
  type FileEventTransaction,
} from './events/file-event-publisher.js';
/** @public */
export { FileActivityLog, type FileActivity } from './events/file-activity-log.js';
export { OrphanSweeper } from './orphans/orphan-sweeper.js';
export { OrphanSweepSchedule } from './orphans/orphan-sweep.schedule.js';
/** @public */
export { FileUrls } from './urls/file-urls.js';
/** @public */
export { FileVariantSource, type StoredVariant } from './urls/file-variant-source.js';
export { filesSchema as fileFieldsSchema } from './files.schema.js';
