import { jest } from '@jest/globals';
import { S3Client } from '@aws-sdk/client-s3';
import { S3Storage, type S3StorageOptions } from './s3.storage.js';

const keys = { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY' };
const signedAt = Date.UTC(2026, 10, 23, 10) / 1000;
const key = 'product/7/2f1c9a7e-0b4e-4a4f-9c55-0d0e3b1d2a11';
const response = {
  contentType: 'image/png',
  contentDisposition: 'inline; filename="a photo.png"; filename*=UTF-8\'\'a%20ph%C3%B6to.png',
  cacheControl: 'private, max-age=3600',
};

async function sign(options: Omit<S3StorageOptions, 'accessKeyId' | 'secretAccessKey'>, at = signedAt, creds = keys) {
  const storage = new S3Storage({ ...options, ...creds });
  try {
    return await (await storage.directUrls()).sign(key, at, 7200, response);
  } finally {
    await storage.close();
  }
}

describe('S3Storage', () => {
  afterEach(() => jest.restoreAllMocks());

  // The URLs the hand-written signer gave before the SDK's presigner replaced it: same object, headers and signature.
  it.each([
    [
      'AWS, virtual-hosted',
      { bucket: 'files', region: 'eu-west-1', forcePathStyle: false },
      'https://files.s3.eu-west-1.amazonaws.com',
      '9592eb75b4c858f471fdc6879f60cea26bf0532265f195854176afa30bcb0537',
    ],
    [
      'AWS, a bucket with dots in the path',
      { bucket: 'files.example.com', region: 'us-east-1', forcePathStyle: false },
      'https://s3.us-east-1.amazonaws.com/files.example.com',
      'e9db28e78eb379c7f40810722c58d66ae77746676a5589546134a06ca7b3b87b',
    ],
    [
      'a custom endpoint with a port, path style (MinIO, s3rver)',
      { bucket: 'files-e2e', region: 'us-east-1', endpoint: 'http://127.0.0.1:4569', forcePathStyle: true },
      'http://127.0.0.1:4569/files-e2e',
      '975c2b8a45a24cc1f06308f622a1346779610d1e1f09955f363f8e80a4d57d83',
    ],
    [
      'a custom endpoint, virtual-hosted (R2)',
      { bucket: 'files', region: 'auto', endpoint: 'https://account.r2.cloudflarestorage.com', forcePathStyle: false },
      'https://files.account.r2.cloudflarestorage.com',
      '49e4de0aa45b7f5409ebf1608e838c61bceb57e34cabd08078fc9f23e782d279',
    ],
  ])('presigns the URL it always has: %s', async (_name, options, base, signature) => {
    const url = new URL(await sign(options));
    expect(`${url.origin}${url.pathname}`).toBe(`${base}/${key}`);
    expect([...url.searchParams].sort()).toEqual(
      [
        ['X-Amz-Algorithm', 'AWS4-HMAC-SHA256'],
        ['X-Amz-Content-Sha256', 'UNSIGNED-PAYLOAD'],
        ['X-Amz-Credential', `AKIDEXAMPLE/20261123/${options.region}/s3/aws4_request`],
        ['X-Amz-Date', '20261123T100000Z'],
        ['X-Amz-Expires', '7200'],
        ['X-Amz-Signature', signature],
        ['X-Amz-SignedHeaders', 'host'],
        ['response-cache-control', response.cacheControl],
        ['response-content-disposition', response.contentDisposition],
        ['response-content-type', response.contentType],
        ['x-id', 'GetObject'],
      ].sort(),
    );
  });

  it('signs the same URL for the same time, another for another time, and refuses lifetimes over 7 days', async () => {
    const options = { bucket: 'files', region: 'eu-west-1', forcePathStyle: false };
    expect(await sign(options)).toBe(await sign(options));
    expect(await sign(options, signedAt + 3600)).not.toBe(await sign(options));
    const storage = new S3Storage({ ...options, ...keys });
    await expect((await storage.directUrls()).sign(key, signedAt, 604_801, {})).rejects.toThrow(/one week/);
    await storage.close();
  });

  describe("with the default chain's temporary credentials", () => {
    const saved = { ...process.env };
    const setCredentials = (id: string, expiresInMs: number) =>
      Object.assign(process.env, {
        AWS_ACCESS_KEY_ID: id,
        AWS_SECRET_ACCESS_KEY: 'secret',
        AWS_SESSION_TOKEN: `token-of-${id}`,
        AWS_CREDENTIAL_EXPIRATION: new Date(Date.now() + expiresInMs).toISOString(),
      });
    afterEach(() => {
      process.env = { ...saved };
    });

    it('signs with the session token, and renews credentials 5 minutes before they expire', async () => {
      const byKey = (url: string) => new URL(url).searchParams;
      for (const [expiresInMs, renewed] of [
        [3_600_000, false],
        [4 * 60_000, true],
      ] as const) {
        setCredentials('AKIDFIRST', expiresInMs);
        const storage = new S3Storage({ bucket: 'files', region: 'eu-west-1', forcePathStyle: false });
        const signer = await storage.directUrls();
        const first = byKey(await signer.sign(key, signedAt, 600, {}));
        expect(first.get('X-Amz-Security-Token')).toBe('token-of-AKIDFIRST');
        setCredentials('AKIDRENEWED', 3_600_000);
        const next = byKey(await signer.sign(key, signedAt, 600, {}));
        expect(next.get('X-Amz-Credential')).toMatch(renewed ? /^AKIDRENEWED\// : /^AKIDFIRST\//);
        await storage.close();
      }
    });
  });

  it('destroys its SDK clients when closed, which ends the sockets they keep alive', async () => {
    const destroy = jest.spyOn(S3Client.prototype, 'destroy');
    const storage = new S3Storage({ bucket: 'files', region: 'us-east-1', forcePathStyle: true });
    await storage.close();
    expect(destroy).toHaveBeenCalledTimes(1);
    const signing = new S3Storage({ bucket: 'files', region: 'us-east-1', forcePathStyle: true, ...keys });
    await signing.directUrls();
    await signing.close();
    expect(destroy).toHaveBeenCalledTimes(3);
  });
});
