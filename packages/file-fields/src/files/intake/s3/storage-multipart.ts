import type { FileStorage } from '../../../storage/file-storage.js';
import type { MultipartUploads } from './multipart-uploads.js';

/** The multipart uploads of the application's storage, made once at start; undefined on a storage without them. */
export class StorageMultipart {
  constructor(readonly uploads: MultipartUploads | undefined) {}

  /**
   * The S3 adapter over the storage's bucket. The AWS SDK is loaded only then: a local-disk instance does not pay
   * for it.
   */
  static async of(storage: FileStorage): Promise<StorageMultipart> {
    const bucket = storage.s3Bucket();
    if (!bucket) return new StorageMultipart(undefined);
    const { S3Multipart } = await import('./s3-multipart.js');
    return new StorageMultipart(new S3Multipart(bucket));
  }
}
