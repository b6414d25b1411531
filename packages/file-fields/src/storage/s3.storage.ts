import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  NotFound,
  NoSuchKey,
  paginateListObjectsV2,
  S3Client,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { Readable } from 'node:stream';
import {
  assertSafeKey,
  FileStorage,
  type ByteRange,
  type DirectUrlSigner,
  type S3Bucket,
  type StoredObject,
} from './file-storage.js';

export interface S3StorageOptions {
  bucket: string;
  region: string;
  endpoint?: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  forcePathStyle: boolean;
}

/** Parts of 8 MiB, four in flight: a large upload holds at most ~32 MiB, whatever its size. */
const PART_SIZE = 8 * 1024 * 1024;
const QUEUE_SIZE = 4;

/**
 * Stores files in an S3-compatible bucket (AWS S3, MinIO, Cloudflare R2, Ceph RGW). Uploads stream through
 * multipart upload; an upload that fails is aborted, so no partial object is left behind.
 */
export class S3Storage extends FileStorage {
  private readonly client: S3Client;
  /** The client direct URLs are signed with (direct mode only); it sends no request. */
  private presigner?: S3Client;
  /** The client direct uploads' part URLs are signed with; it sends no request. */
  private partSigner?: S3Client;

  constructor(private readonly options: S3StorageOptions) {
    super();
    const credentials =
      options.accessKeyId && options.secretAccessKey
        ? { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey }
        : undefined;
    this.client = new S3Client({
      region: options.region,
      endpoint: options.endpoint,
      forcePathStyle: options.forcePathStyle,
      credentials,
    });
  }

  async put(key: string, body: Readable): Promise<void> {
    assertSafeKey(key);
    const upload = new Upload({
      client: this.client,
      params: { Bucket: this.options.bucket, Key: key, Body: body },
      partSize: PART_SIZE,
      queueSize: QUEUE_SIZE,
      leavePartsOnError: false,
    });
    await upload.done();
  }

  async get(key: string, range?: ByteRange): Promise<Readable> {
    assertSafeKey(key);
    const response = await this.client.send(
      new GetObjectCommand({
        Bucket: this.options.bucket,
        Key: key,
        Range: range ? `bytes=${range.start}-${range.end}` : undefined,
      }),
    );
    if (!(response.Body instanceof Readable)) throw new Error(`S3 returned no stream for ${key}`);
    return response.Body;
  }

  async delete(key: string): Promise<void> {
    assertSafeKey(key);
    await this.client.send(new DeleteObjectCommand({ Bucket: this.options.bucket, Key: key }));
  }

  async exists(key: string): Promise<boolean> {
    assertSafeKey(key);
    try {
      await this.client.send(new HeadObjectCommand({ Bucket: this.options.bucket, Key: key }));
      return true;
    } catch (error) {
      if (error instanceof NotFound || error instanceof NoSuchKey) return false;
      throw error;
    }
  }

  async *list(): AsyncIterable<StoredObject> {
    const pages = paginateListObjectsV2({ client: this.client }, { Bucket: this.options.bucket });
    for await (const page of pages) {
      for (const object of page.Contents ?? []) {
        if (object.Key) yield { key: object.Key, modifiedAt: object.LastModified ?? new Date(0) };
      }
    }
  }

  async check(): Promise<void> {
    await this.client.send(new HeadBucketCommand({ Bucket: this.options.bucket }));
  }

  /**
   * Presigned GET URLs made by the SDK's presigner, with the client's credentials: the configured keys, or those of
   * the SDK's default chain (environment, instance role), which the SDK renews 5 minutes before they expire. Its
   * client leaves out the checksum parameter the SDK would otherwise add (x-amz-checksum-mode), which a browser's GET
   * has no use for; the client that moves bytes keeps its checksums.
   */
  override async directUrls(): Promise<DirectUrlSigner> {
    const { bucket, region, endpoint, forcePathStyle } = this.options;
    const credentials = this.client.config.credentials;
    // Credentials that cannot be found stop the start rather than fail the first response.
    await credentials();
    const presigner = new S3Client({
      region,
      endpoint,
      forcePathStyle,
      credentials,
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
    this.presigner = presigner;
    return {
      sign: async (key, signedAt, expiresIn, response) => {
        assertSafeKey(key);
        const command = new GetObjectCommand({
          Bucket: bucket,
          Key: key,
          ResponseContentType: response.contentType,
          ResponseContentDisposition: response.contentDisposition,
          ResponseCacheControl: response.cacheControl,
        });
        return getSignedUrl(presigner, command, { expiresIn, signingDate: new Date(signedAt * 1000) });
      },
    };
  }

  /** The bucket and clients, for the uploads that speak S3 themselves (direct, resumable). */
  override s3Bucket(): S3Bucket {
    return { client: this.client, name: this.options.bucket, signer: () => this.signer() };
  }

  /**
   * Signs part URLs: a client that sends no request and leaves out the checksum parameters the SDK would otherwise
   * add, which a browser's PUT of a part cannot satisfy.
   */
  private signer(): S3Client {
    const { region, endpoint, forcePathStyle } = this.options;
    this.partSigner ??= new S3Client({
      region,
      endpoint,
      forcePathStyle,
      credentials: this.client.config.credentials,
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
    return this.partSigner;
  }

  /** The SDK client keeps its sockets alive for reuse; only destroying it ends them. */
  override close(): Promise<void> {
    this.client.destroy();
    this.presigner?.destroy();
    this.partSigner?.destroy();
    return Promise.resolve();
  }
}
