import type { FileStorage } from '../../../../storage/file-storage.js';
import { LocalDiskResumableStorage } from './local-disk-resumable.storage.js';
import type { ResumableStorage } from './resumable-storage.js';
import type { UnfinishedUploadStates } from './upload-states.js';

/**
 * Where resumable uploads keep their bytes until they complete, built once at start over the application's storage
 * (which knows nothing of them): a directory beside a local disk's files, or multipart uploads in an S3 bucket.
 * Undefined on a storage that offers neither.
 */
export class UnfinishedStorage {
  constructor(readonly storage: ResumableStorage | undefined) {}

  /** `states` keeps what the storage must know of each upload between requests (S3: its multipart upload, parts). */
  static async of(storage: FileStorage, states: UnfinishedUploadStates): Promise<UnfinishedStorage> {
    const root = storage.localRoot();
    if (root !== undefined) return new UnfinishedStorage(new LocalDiskResumableStorage(root));
    const bucket = storage.s3Bucket();
    if (!bucket) return new UnfinishedStorage(undefined);
    // The AWS SDK is loaded only for an S3 storage.
    const { S3ResumableStorage } = await import('./s3-resumable.storage.js');
    return new UnfinishedStorage(new S3ResumableStorage(bucket, states));
  }
}
