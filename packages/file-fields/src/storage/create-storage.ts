import type { FileStorage } from './file-storage.js';
import { LocalDiskStorage } from './local-disk.storage.js';
import type { S3StorageOptions } from './s3.storage.js';

/** Where files go, as the configuration reads it. */
export type StorageSettings = { driver: 'local'; root: string } | ({ driver: 's3' } & S3StorageOptions);

/**
 * The storage driver chosen by STORAGE_DRIVER: local disk (default) or an S3-compatible bucket. The AWS SDK is
 * loaded only when S3 is used: it costs tens of MiB of memory that a local-disk instance does not need.
 */
export async function createStorage(settings: StorageSettings): Promise<FileStorage> {
  if (settings.driver !== 's3') return new LocalDiskStorage(settings.root);
  const { S3Storage } = await import('./s3.storage.js');
  return new S3Storage(settings);
}
