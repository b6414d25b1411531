import { DeleteObjectCommand, HeadObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { describeFilesSuite } from './support/files-suite.js';
import { startS3Server, type S3TestServer } from './support/s3-server.js';

describeFilesSuite('S3', { start: () => startS3Server() });

describe('the S3 test server', () => {
  let s3: S3TestServer;
  let client: S3Client;

  beforeAll(async () => {
    s3 = await startS3Server('race');
    client = new S3Client({
      endpoint: s3.env.S3_ENDPOINT,
      region: s3.env.S3_REGION,
      forcePathStyle: true,
      credentials: { accessKeyId: s3.env.S3_ACCESS_KEY_ID, secretAccessKey: s3.env.S3_SECRET_ACCESS_KEY },
    });
  });

  afterAll(async () => {
    client.destroy();
    await s3.stop();
  });

  // Unpatched s3rver 3.7 lost this race within the first few rounds and ended the process with an unhandled ENOENT.
  it('stores a PUT that runs while the last other object under the same prefix is deleted', async () => {
    for (let round = 0; round < 50; round++) {
      await client.send(new PutObjectCommand({ Bucket: 'race', Key: `product/${round}/old`, Body: 'old' }));
      await Promise.all([
        client.send(new DeleteObjectCommand({ Bucket: 'race', Key: `product/${round}/old` })),
        client.send(new PutObjectCommand({ Bucket: 'race', Key: `product/${round}/new`, Body: Buffer.alloc(1000) })),
      ]);
      const stored = await client.send(new HeadObjectCommand({ Bucket: 'race', Key: `product/${round}/new` }));
      expect(stored.ContentLength).toBe(1000);
    }
  });
});
