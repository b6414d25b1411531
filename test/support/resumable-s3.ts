import { paginateListObjectsV2, UploadPartCommand, type S3Client } from '@aws-sdk/client-s3';
import { createHash } from 'node:crypto';
import type { DataSource } from 'typeorm';

/** What S3ResumableStorage keeps in an upload's row (the parts of it the tests look at), with the storage key. */
export interface StoredState {
  key: string;
  uploadId: string | null;
  parts: Array<{ number: number; size: number }>;
  tail: { name: string; size: number } | null;
}

/** The S3 state of the upload behind a tus upload URL's path, read from its row. */
export async function storedState(dataSource: DataSource, location: string): Promise<StoredState> {
  const hash = createHash('sha256').update(location.split('/').pop()!).digest('hex');
  const placeholder = dataSource.options.type === 'postgres' ? '$1' : '?';
  const [row] = await dataSource.query<Array<{ storage_key: string; storage_state: string | null }>>(
    `SELECT storage_key, storage_state FROM resumable_uploads WHERE id_hash = ${placeholder}`,
    [hash],
  );
  return { key: row.storage_key, ...(JSON.parse(row.storage_state ?? 'null') as Omit<StoredState, 'key'>) };
}

export async function bucketKeys(client: S3Client, bucket: string, prefix = ''): Promise<string[]> {
  const keys: string[] = [];
  const pages = paginateListObjectsV2({ client }, { Bucket: bucket, Prefix: prefix });
  for await (const page of pages) for (const object of page.Contents ?? []) keys.push(object.Key!);
  return keys;
}

/** Whether S3 still takes parts for a multipart upload: an aborted or completed one answers NoSuchUpload. */
export function multipartAlive(client: S3Client, bucket: string, key: string, uploadId: string): Promise<boolean> {
  return client
    .send(new UploadPartCommand({ Bucket: bucket, Key: key, UploadId: uploadId, PartNumber: 9, Body: 'x' }))
    .then(
      () => true,
      (error: Error) => {
        if (error.name === 'NoSuchUpload') return false;
        throw error;
      },
    );
}
