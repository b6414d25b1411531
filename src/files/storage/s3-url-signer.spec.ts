import { GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { S3UrlSigner, type S3Credentials, type S3Location } from './s3-url-signer.js';

const credentials: S3Credentials = {
  accessKeyId: 'AKIDEXAMPLE',
  secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY',
};
const signedAt = Date.UTC(2026, 10, 23, 10) / 1000;
const response = {
  contentType: 'image/png',
  contentDisposition: 'inline; filename="a photo.png"; filename*=UTF-8\'\'a%20ph%C3%B6to.png',
  cacheControl: 'private, max-age=3600',
};

/** The AWS SDK's presigned URL for the same object, time and headers: the reference. */
async function sdkUrl(location: S3Location, key: string, expiresIn: number, creds = credentials): Promise<string> {
  const client = new S3Client({
    region: location.region,
    endpoint: location.endpoint,
    forcePathStyle: location.forcePathStyle,
    credentials: creds,
    // Otherwise the SDK adds checksum parameters (x-amz-checksum-*), which a browser's GET has no use for.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  try {
    const command = new GetObjectCommand({
      Bucket: location.bucket,
      Key: key,
      ResponseContentType: response.contentType,
      ResponseContentDisposition: response.contentDisposition,
      ResponseCacheControl: response.cacheControl,
    });
    return await getSignedUrl(client, command, { expiresIn, signingDate: new Date(signedAt * 1000) });
  } finally {
    client.destroy();
  }
}

/** Query parameters in a stable order, so two URLs compare whatever order they list them in. */
function normalized(url: string): { base: string; query: Array<[string, string]> } {
  const parsed = new URL(url);
  return { base: `${parsed.origin}${parsed.pathname}`, query: [...parsed.searchParams].sort() };
}

describe('S3UrlSigner', () => {
  const key = 'product/7/2f1c9a7e-0b4e-4a4f-9c55-0d0e3b1d2a11';
  const cases: Array<[string, S3Location]> = [
    ['AWS, virtual-hosted', { bucket: 'files', region: 'eu-west-1', forcePathStyle: false }],
    [
      'AWS, a bucket with dots in the path',
      { bucket: 'files.example.com', region: 'us-east-1', forcePathStyle: false },
    ],
    [
      'a custom endpoint with a port, path style (MinIO, s3rver)',
      { bucket: 'files-e2e', region: 'us-east-1', endpoint: 'http://127.0.0.1:4569', forcePathStyle: true },
    ],
    [
      'a custom endpoint, virtual-hosted (R2)',
      { bucket: 'files', region: 'auto', endpoint: 'https://account.r2.cloudflarestorage.com', forcePathStyle: false },
    ],
  ];

  it.each(cases)('signs exactly as the AWS SDK does: %s', async (_name, location) => {
    const ours = new S3UrlSigner(location, () => credentials).sign(key, signedAt, 7200, response);
    expect(normalized(ours)).toEqual(normalized(await sdkUrl(location, key, 7200)));
  });

  it('adds the session token of temporary credentials, and reads the credentials at every signature', async () => {
    const location = cases[0][1];
    let current: S3Credentials = { ...credentials, sessionToken: 'FQoGZXIvYXdzE//token+/=' };
    const signer = new S3UrlSigner(location, () => current);
    const first = signer.sign(key, signedAt, 600, response);
    expect(new URL(first).searchParams.get('X-Amz-Security-Token')).toBe(current.sessionToken);
    expect(normalized(first)).toEqual(normalized(await sdkUrl(location, key, 600, current)));
    current = { accessKeyId: 'AKIDRENEWED', secretAccessKey: 'renewed' };
    const second = signer.sign(key, signedAt, 600, response);
    expect(new URL(second).searchParams.get('X-Amz-Credential')).toMatch(/^AKIDRENEWED\//);
    expect(normalized(second)).toEqual(normalized(await sdkUrl(location, key, 600, current)));
  });

  it('signs the same URL for the same time and headers, and another for another time or object', () => {
    const signer = new S3UrlSigner(cases[2][1], () => credentials);
    const url = signer.sign(key, signedAt, 7200, response);
    expect(signer.sign(key, signedAt, 7200, response)).toBe(url);
    expect(signer.sign(key, signedAt + 3600, 7200, response)).not.toBe(url);
    expect(signer.sign('product/7/other', signedAt, 7200, response)).not.toBe(url);
    expect(url.startsWith('http://127.0.0.1:4569/files-e2e/product/7/')).toBe(true);
  });

  it('refuses lifetimes S3 does not accept (over 7 days)', () => {
    const signer = new S3UrlSigner(cases[0][1], () => credentials);
    expect(() => signer.sign(key, signedAt, 604_801, {})).toThrow(RangeError);
    expect(() => signer.sign(key, signedAt, 0, {})).toThrow(RangeError);
  });
});
