import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  HeadObjectCommand,
  UploadPartCommand,
  type S3Client,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { Readable } from 'node:stream';
import { assertSafeKey, type S3Bucket } from '../../../storage/file-storage.js';
import { isMissingObject } from '../../../errors/files.errors.js';
import type { MultipartUploads, PartUrl, UploadedPart } from './multipart-uploads.js';

/**
 * S3 multipart uploads, the one adapter of both kinds that use them: parts clients PUT to presigned URLs (direct
 * uploads, signed by the bucket's signer, which sends no request) and parts the service sends (resumable uploads).
 */
export class S3Multipart implements MultipartUploads {
  private readonly client: S3Client;
  private readonly bucket: string;

  constructor(private readonly s3: S3Bucket) {
    this.client = s3.client;
    this.bucket = s3.name;
  }

  async create(key: string): Promise<string> {
    assertSafeKey(key);
    const { UploadId } = await this.client.send(new CreateMultipartUploadCommand({ Bucket: this.bucket, Key: key }));
    if (!UploadId) throw new Error(`S3 returned no upload id for ${key}`);
    return UploadId;
  }

  async uploadPart(key: string, uploadId: string, partNumber: number, body: Readable, size: number): Promise<string> {
    assertSafeKey(key);
    const { ETag } = await this.client.send(
      new UploadPartCommand({
        ...{ Bucket: this.bucket, Key: key, UploadId: uploadId },
        ...{ PartNumber: partNumber, Body: body, ContentLength: size },
      }),
    );
    if (!ETag) throw new Error(`S3 returned no ETag for part ${partNumber} of ${key}`);
    return ETag;
  }

  /** Each URL is signed with its part's Content-Length, so no part can carry more bytes than the upload declared. */
  async presignParts(
    key: string,
    uploadId: string,
    size: number,
    partSize: number,
    expiresIn: number,
  ): Promise<PartUrl[]> {
    assertSafeKey(key);
    const presigner = this.s3.signer();
    const count = Math.ceil(size / partSize);
    return Promise.all(
      Array.from({ length: count }, async (_, index) => {
        const partNumber = index + 1;
        const length = Math.min(partSize, size - index * partSize);
        const command = new UploadPartCommand({
          Bucket: this.bucket,
          Key: key,
          UploadId: uploadId,
          PartNumber: partNumber,
          ContentLength: length,
        });
        const url = await getSignedUrl(presigner, command, {
          expiresIn,
          signableHeaders: new Set(['content-length']),
        });
        return { partNumber, url, size: length };
      }),
    );
  }

  async complete(key: string, uploadId: string, parts: UploadedPart[]): Promise<void> {
    assertSafeKey(key);
    await this.client.send(
      new CompleteMultipartUploadCommand({
        Bucket: this.bucket,
        Key: key,
        UploadId: uploadId,
        MultipartUpload: { Parts: parts.map(({ partNumber, etag }) => ({ PartNumber: partNumber, ETag: etag })) },
      }),
    );
  }

  async abort(key: string, uploadId: string): Promise<void> {
    assertSafeKey(key);
    try {
      await this.client.send(new AbortMultipartUploadCommand({ Bucket: this.bucket, Key: key, UploadId: uploadId }));
    } catch (error) {
      if (!isMissingObject(error)) throw error;
    }
  }

  async sizeOf(key: string): Promise<number | undefined> {
    assertSafeKey(key);
    try {
      const head = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return head.ContentLength;
    } catch (error) {
      if (isMissingObject(error)) return undefined;
      throw error;
    }
  }
}
