import { S3Client } from '@aws-sdk/client-s3';
import { S3Multipart } from './s3-multipart.js';

const MiB = 1024 * 1024;

describe('S3Multipart.presignParts', () => {
  const client = new S3Client({
    region: 'eu-central-1',
    endpoint: 'https://s3.example.com',
    forcePathStyle: true,
    credentials: { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'secret' },
    requestChecksumCalculation: 'WHEN_REQUIRED',
  });
  afterAll(() => client.destroy());
  const multipart = new S3Multipart({ client, name: 'bucket', signer: () => client });

  it('signs one UploadPart URL per part, each bound to its part length, without checksum parameters', async () => {
    const parts = await multipart.presignParts('product/1/abc', 'upload-1', 20 * MiB + 5, 8 * MiB, 3600);
    expect(parts.map(({ partNumber, size }) => [partNumber, size])).toEqual([
      [1, 8 * MiB],
      [2, 8 * MiB],
      [3, 4 * MiB + 5],
    ]);
    for (const part of parts) {
      const url = new URL(part.url);
      expect(url.origin + url.pathname).toBe('https://s3.example.com/bucket/product/1/abc');
      expect(url.searchParams.get('partNumber')).toBe(String(part.partNumber));
      expect(url.searchParams.get('uploadId')).toBe('upload-1');
      expect(url.searchParams.get('X-Amz-Expires')).toBe('3600');
      expect(url.searchParams.get('X-Amz-SignedHeaders')).toBe('content-length;host');
      expect([...url.searchParams.keys()].filter((key) => /checksum/i.test(key))).toEqual([]);
    }
  });

  it('refuses a key that could leave the bucket prefix', async () => {
    await expect(multipart.presignParts('../etc', 'u', 1, 8 * MiB, 60)).rejects.toThrow(/Unsafe storage key/);
  });
});
