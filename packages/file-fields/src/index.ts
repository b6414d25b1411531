/**
 * @file-fields/nest: file fields on TypeORM entities for NestJS. What an application imports comes from here and
 * nowhere else (package.json's `exports`).
 */
export {
  FileStorage,
  assertSafeKey,
  isReservedKey,
  RESERVED_PREFIX,
  UNFINISHED_PREFIX,
  type ByteRange,
  type DirectUrlResponse,
  type DirectUrlSigner,
  type S3Bucket,
  type StoredObject,
} from './storage/file-storage.js';
export { LocalDiskStorage } from './storage/local-disk.storage.js';
export type { S3Storage, S3StorageOptions } from './storage/s3.storage.js';
export { createStorage, type StorageSettings } from './storage/create-storage.js';
export { DomainError } from './errors/domain-error.js';
export { CatalogedError, type ErrorCatalog } from './errors/cataloged-error.js';
export {
  FilesError,
  FilesErrorCode,
  isMissingObject,
  storageFault,
  storageFaultReason,
} from './errors/files.errors.js';
export { PROBLEM_CONTENT_TYPE, problem, problemOf, type ProblemDocument } from './errors/problem-details.js';
export { DomainErrorFilter } from './errors/domain-error.filter.js';
export { ValidationFailedError, type FieldViolation } from './errors/validation-failed.error.js';

// Declaring file fields, and the module that serves them.
export { FileFieldsModule, type FileFieldsAsyncOptions } from './files/file-fields.module.js';
export type { FileFieldsOptions } from './files/fields/file-fields.options.js';
export {
  AttachmentType,
  FileField,
  getAttachmentType,
  getCollectionPath,
  type AttachmentTypeOptions,
  type FileFieldOptions,
} from './files/fields/file-field.decorator.js';
export type { ImageVariantOptions } from './files/images/options/image-options.js';
export { FileRecord } from './files/records/file-record.entity.js';
export { FileRecordDto } from './files/records/file-record.dto.js';
export { FileFieldRegistry } from './files/fields/file-field.registry.js';
export { documentFileFields } from './files/fields/file-fields.openapi.js';
export { filesSchema as fileFieldsSchema } from './files/files.schema.js';
export {
  FILE_EVENT_KINDS,
  FileEventPublisher,
  type FileEvent,
  type FileEventKind,
  type FileEventTransaction,
} from './files/events/file-event-publisher.js';
export { FileActivityLog, type FileActivity } from './files/events/file-activity-log.js';
export { OrphanSweeper } from './files/orphans/orphan-sweeper.js';
export { OrphanSweepSchedule } from './files/orphans/orphan-sweep.schedule.js';
export { FileUrls } from './files/urls/file-urls.js';
export { FileVariantSource, type StoredVariant } from './files/urls/file-variant-source.js';
export { FileVariants } from './files/images/variants/file-variants.service.js';

// Standard routes for entity types (FileFieldsModule.forFeature).
export type { ServedTypesOptions } from './entity-routes/entity-routes.module.js';
export type { ServedType, ServedTypeOptions } from './entity-routes/served-type.js';
export type { EntityWrite, WriteDecorator } from './entity-routes/entity-routes.controller.js';
export type { ServedEntity } from './entity-routes/entity.service.js';

// The port to the host's authentication: who calls (`req.user`) and what a route needs.
export type { Principal } from './auth/principal.js';
export {
  Authenticated,
  BEARER_SCHEME,
  IS_PUBLIC,
  OAUTH2_SCHEME,
  Public,
  REQUIRED_PERMISSION,
  RequirePermission,
  type PermissionRequirement,
} from './auth/auth.decorators.js';
export { InsufficientScopeError, InvalidTokenError } from './auth/auth.errors.js';
export { PermissionGuard } from './auth/permission.guard.js';
export { CurrentPrincipal } from './auth/current-principal.decorator.js';
export { PermissionSource, type DeclaresPermissions, type PermissionUse } from './auth/permission-source.js';
export { PERMISSION, grants, isPermission } from './auth/permissions.js';

// The database: one transaction per change, pages of lists, columns and transformers for entities and migrations.
export { UnitOfWork, type Transaction } from './database/unit-of-work.js';
export { TRANSACTION_CONFLICT_RESPONSE } from './database/transaction-conflict.js';
export {
  EntityReader,
  findPage,
  sortValuesOf,
  type ListSpec,
  type Page,
  type PageQuery,
} from './database/list-page.js';
export { columns } from './database/migration-columns.js';
export { schemaRegistry, type FeatureSchema } from './database/schema-registry.js';
export { bigintNumber } from './database/transformers.js';

// Answers kept while the data they were made from stays the same.
export { CacheableRead } from './read-cache/cacheable-read.js';
export { ReadCache } from './read-cache/read-cache.js';
export { DataVersion } from './read-cache/data-version.js';
export {
  countChangesOf,
  stopCountingChangesOf,
  uncountedOf,
  useSingleRowDataChanges,
} from './read-cache/data-changes.js';

// HTTP and OpenAPI parts its routes share with the host's.
export { ApiProblems } from './openapi/api-problems.js';
export { FieldViolationSchema, ValidationProblemDetailsSchema } from './openapi/problem-details.schema.js';
export { ListQueryDto, listQueryOf, type SearchableListQuery } from './openapi/list-query.dto.js';
export { pageSchemaOf } from './openapi/page.dto.js';
export { ParseIdPipe } from './common/parse-id.pipe.js';
export { createValidationPipe } from './common/validation.js';
export { Clock, ClockModule } from './common/clock.js';
export { countOf } from './common/plural.js';
