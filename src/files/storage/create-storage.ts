import type { AppConfig } from '../../config/environment.js';
import type { FileStorage } from './file-storage.js';
import { LocalDiskStorage } from './local-disk.storage.js';
import { S3Storage } from './s3.storage.js';

/** The storage driver chosen by STORAGE_DRIVER: local disk (default) or an S3-compatible bucket. */
export function createStorage(config: AppConfig): FileStorage {
  const storage = config.storage;
  return storage.driver === 's3' ? new S3Storage(storage) : new LocalDiskStorage(storage.root);
}
