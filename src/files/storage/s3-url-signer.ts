import { createHash, createHmac } from 'node:crypto';
import type { DirectUrlResponse, DirectUrlSigner } from './file-storage.js';

/** Where a bucket is: the part of S3StorageOptions a URL needs. */
export interface S3Location {
  bucket: string;
  region: string;
  endpoint?: string;
  forcePathStyle: boolean;
}

export interface S3Credentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
}

/** S3's longest presigned URL lifetime. */
export const S3_MAX_EXPIRES_SECONDS = 604_800;

/** A bucket name that can be a host name label (else the bucket goes in the path, as the AWS SDK does). */
const VIRTUAL_HOSTABLE = /^[a-z0-9][a-z0-9-]{1,61}[a-z0-9]$/;

const RESPONSE_PARAMETERS: ReadonlyArray<[keyof DirectUrlResponse, string]> = [
  ['contentType', 'response-content-type'],
  ['contentDisposition', 'response-content-disposition'],
  ['cacheControl', 'response-cache-control'],
];

/** RFC 3986 encoding, as Signature Version 4 wants it: everything but A-Z a-z 0-9 - _ . ~ as %XX. */
function uriEncode(value: string): string {
  return encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

const hmac = (key: Buffer | string, data: string): Buffer => createHmac('sha256', key).update(data).digest();

/** `20261123T100000Z` of a Unix time in seconds. */
function amzDate(seconds: number): string {
  return new Date(seconds * 1000)
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
}

/**
 * S3 presigned GET URLs (AWS Signature Version 4, query authentication), computed synchronously: the AWS SDK's
 * presigner is asynchronous, and a file record's `url` is made while a response is built. The URL names the object
 * as the SDK would (virtual-hosted `bucket.s3.region.amazonaws.com`, or the bucket in the path on a custom endpoint
 * with path style), signs only the Host header and leaves the payload unsigned; its spec checks it against the SDK.
 * `credentials` is asked at every signature, so credentials that are renewed in the background are picked up.
 */
export class S3UrlSigner implements DirectUrlSigner {
  private readonly origin: string;
  private readonly host: string;
  /** The path up to the key, without its final slash: `/bucket` in path style, else the endpoint's path, if any. */
  private readonly prefix: string;

  constructor(
    private readonly location: S3Location,
    private readonly credentials: () => S3Credentials,
  ) {
    const { bucket, region, endpoint, forcePathStyle } = location;
    const base = new URL(endpoint ?? `https://s3.${region}.amazonaws.com`);
    const pathStyle = forcePathStyle || !VIRTUAL_HOSTABLE.test(bucket);
    const host = pathStyle ? base.host : `${bucket}.${base.host}`;
    const basePath = base.pathname.replace(/\/+$/, '');
    this.origin = `${base.protocol}//${host}`;
    this.host = host;
    this.prefix = pathStyle ? `${basePath}/${uriEncode(bucket)}` : basePath;
  }

  sign(key: string, signedAt: number, expiresIn: number, response: DirectUrlResponse): string {
    if (!(expiresIn >= 1 && expiresIn <= S3_MAX_EXPIRES_SECONDS)) {
      throw new RangeError(`An S3 presigned URL lives 1 to ${S3_MAX_EXPIRES_SECONDS} seconds, not ${expiresIn}`);
    }
    const { accessKeyId, secretAccessKey, sessionToken } = this.credentials();
    const date = amzDate(signedAt);
    const scope = `${date.slice(0, 8)}/${this.location.region}/s3/aws4_request`;
    const parameters: Array<[string, string]> = [
      ['X-Amz-Algorithm', 'AWS4-HMAC-SHA256'],
      ['X-Amz-Content-Sha256', 'UNSIGNED-PAYLOAD'],
      ['X-Amz-Credential', `${accessKeyId}/${scope}`],
      ['X-Amz-Date', date],
      ['X-Amz-Expires', String(expiresIn)],
      ['X-Amz-SignedHeaders', 'host'],
    ];
    if (sessionToken) parameters.push(['X-Amz-Security-Token', sessionToken]);
    // The operation's name, which the SDK signs into every request it makes: the URL stays exactly the SDK's.
    parameters.push(['x-id', 'GetObject']);
    for (const [field, name] of RESPONSE_PARAMETERS) {
      const value = response[field];
      if (value !== undefined) parameters.push([name, value]);
    }
    const encoded = parameters.map(([name, value]) => [uriEncode(name), uriEncode(value)]);
    encoded.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    const query = encoded.map(([name, value]) => `${name}=${value}`).join('&');
    const path = `${this.prefix}/${key.split('/').map(uriEncode).join('/')}`;
    const canonicalRequest = ['GET', path, query, `host:${this.host}`, '', 'host', 'UNSIGNED-PAYLOAD'].join('\n');
    const stringToSign = [
      'AWS4-HMAC-SHA256',
      date,
      scope,
      createHash('sha256').update(canonicalRequest).digest('hex'),
    ].join('\n');
    const signingKey = ['s3', 'aws4_request'].reduce(
      hmac,
      hmac(hmac(`AWS4${secretAccessKey}`, date.slice(0, 8)), this.location.region),
    );
    const signature = createHmac('sha256', signingKey).update(stringToSign).digest('hex');
    return `${this.origin}${path}?${query}&X-Amz-Signature=${signature}`;
  }
}
