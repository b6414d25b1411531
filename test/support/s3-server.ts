import { mkdtemp, rm, unlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import S3rver from 's3rver';

/** A real S3-protocol server on 127.0.0.1 (s3rver), and the environment that points the service at it. */
export interface S3TestServer {
  env: Record<string, string>;
  stop(): Promise<void>;
}

export async function startS3Server(bucket = 'files-e2e'): Promise<S3TestServer> {
  const directory = await mkdtemp(join(tmpdir(), 's3rver-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: bucket }],
  });
  keepKeyDirectories(server);
  const { port } = await server.run();
  return {
    env: {
      STORAGE_DRIVER: 's3',
      S3_BUCKET: bucket,
      S3_ENDPOINT: `http://127.0.0.1:${port}`,
      S3_REGION: 'us-east-1',
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
      S3_FORCE_PATH_STYLE: 'true',
    },
    stop: async () => {
      await server.close();
      // s3rver answers a PUT once it has read the body, before its file stream has opened the object's file; removing
      // the directory under a stream still opening makes that stream fail with ENOENT outside any test. Let them land.
      await delay(500);
      await rm(directory, { recursive: true, force: true });
    },
  };
}

/**
 * s3rver 3.7 stores `a/b/key` as a file in the directory `a/b`, and a DELETE removes that directory once it is empty. A
 * PUT of `a/b/other` running at the same moment has already created the directory but not yet opened its file; the open
 * then fails with ENOENT as an unhandled stream error, which ends the whole test process (the service writes image
 * variants in the background, under the prefix of an entity whose other files a test deletes). S3 has no directories,
 * so deletes here leave them in place: only the object's own files go.
 */
function keepKeyDirectories(server: S3rver): void {
  const { store } = server;
  store.deleteObject = async (bucketName, key) => {
    await Promise.all(
      (['object', 'object.md5', 'metadata.json'] as const).map((resource) =>
        unlink(store.getResourcePath(bucketName, key, resource)).catch((error: NodeJS.ErrnoException) => {
          if (error.code !== 'ENOENT') throw error;
        }),
      ),
    );
  };
}
