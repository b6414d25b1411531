import { startFauxqs } from 'fauxqs';
import type { S3TestServer } from './s3-server.js';

/**
 * An S3-protocol server (fauxqs, in memory) for what s3rver 3.7 lacks: AbortMultipartUpload (s3rver answers 405),
 * NoSuchUpload for an aborted or completed upload, and CompleteMultipartUpload that checks each part's ETag and the
 * 5 MiB minimum part size as S3 does. It checks no signature: s3rver covers presigned URLs.
 */
export async function startFauxqsServer(bucket = 'files-e2e'): Promise<S3TestServer> {
  const server = await startFauxqs({ port: 0, host: '127.0.0.1', logger: false });
  server.createBucket(bucket);
  return {
    env: {
      STORAGE_DRIVER: 's3',
      S3_BUCKET: bucket,
      S3_ENDPOINT: `http://127.0.0.1:${server.port}`,
      S3_REGION: 'us-east-1',
      S3_ACCESS_KEY_ID: 'FAUXQS',
      S3_SECRET_ACCESS_KEY: 'FAUXQS',
      S3_FORCE_PATH_STYLE: 'true',
    },
    stop: () => server.stop(),
  };
}
