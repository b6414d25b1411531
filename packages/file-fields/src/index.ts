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
