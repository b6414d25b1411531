import {
  CopyObjectCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  paginateListObjectsV2,
  PutObjectCommand,
  type S3Client,
} from '@aws-sdk/client-s3';
import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { isMissingObject } from '../../../../../errors/files.errors.js';
import { UNFINISHED_PREFIX, type S3Bucket, type StoredObject } from '../../../../../storage/file-storage.js';
import { S3Multipart } from '../../../../intake/s3/s3-multipart.js';
import type { UploadedPart } from './upload-state.js';

/** Metadata of the head object naming the S3 upload, so that an upload whose row is gone can still be aborted. */
const UPLOAD_ID_META = 'upload-id';

/**
 * The bucket's side of unfinished resumable uploads: the multipart upload on the file's own key (completing it
 * stores the file, no copy), and small objects under `.resumable/<key>/`, a prefix no record's key can have: `head`
 * (the first bytes, which a multipart upload's parts cannot be read back for, carrying the S3 upload id) and tails.
 */
export class UnfinishedObjects {
  private readonly client: S3Client;
  private readonly bucket: string;
  /** The multipart upload on the file's own key goes through the storage's one S3 multipart adapter. */
  private readonly multipart: S3Multipart;

  constructor(s3: S3Bucket) {
    this.client = s3.client;
    this.bucket = s3.name;
    this.multipart = new S3Multipart(s3);
  }

  create(key: string): Promise<string> {
    return this.multipart.create(key);
  }

  /** Stores the upload's first bytes, naming the S3 upload, before part 1 is sent (anew when it is sent again). */
  async putHead(key: string, uploadId: string, head: Buffer): Promise<void> {
    const Metadata = { [UPLOAD_ID_META]: uploadId };
    await this.client.send(new PutObjectCommand({ Bucket: this.bucket, Key: headOf(key), Body: head, Metadata }));
  }

  uploadPart(key: string, uploadId: string, number: number, body: Readable, size: number): Promise<string> {
    return this.multipart.uploadPart(key, uploadId, number, body, size);
  }

  /** Stores a tail under a new name (the one it replaces may still be needed); resolves to that name. */
  async putTail(key: string, body: Readable, size: number): Promise<string> {
    const name = `${areaOf(key)}tail-${randomUUID()}`;
    await this.client.send(new PutObjectCommand({ Bucket: this.bucket, Key: name, Body: body, ContentLength: size }));
    return name;
  }

  async read(name: string): Promise<Readable> {
    const { Body } = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: name }));
    if (!(Body instanceof Readable)) throw new Error(`S3 returned no stream for ${name}`);
    return Body;
  }

  /** Up to `bytes` from the start of a tail, or of the head object when `name` is undefined. */
  async readStart(key: string, name: string | undefined, bytes: number): Promise<Buffer> {
    if (bytes <= 0) return Buffer.alloc(0);
    const range = `bytes=0-${bytes - 1}`;
    const { Body } = await this.client.send(
      new GetObjectCommand({ Bucket: this.bucket, Key: name ?? headOf(key), Range: range }),
    );
    return Buffer.from((await Body?.transformToByteArray()) ?? []);
  }

  complete(key: string, uploadId: string, parts: UploadedPart[]): Promise<void> {
    return this.multipart.complete(
      key,
      uploadId,
      parts.map(({ number, etag }) => ({ partNumber: number, etag })),
    );
  }

  /** A file that never filled a part: its tail becomes the object (a copy inside the bucket), or nothing at all. */
  async storeSmall(key: string, tail: string | undefined): Promise<void> {
    if (tail) {
      const CopySource = `${this.bucket}/${tail.split('/').map(encodeURIComponent).join('/')}`;
      await this.client.send(new CopyObjectCommand({ Bucket: this.bucket, Key: key, CopySource }));
    } else {
      await this.client.send(new PutObjectCommand({ Bucket: this.bucket, Key: key, Body: Buffer.alloc(0) }));
    }
  }

  /** Aborts an S3 upload; one already gone is not an error. */
  abortUpload(key: string, uploadId: string): Promise<void> {
    return this.multipart.abort(key, uploadId);
  }

  /** Removes every object under the upload's prefix, the head last (it names the S3 upload until then). */
  async removeArea(key: string): Promise<void> {
    const names: string[] = [];
    const pages = paginateListObjectsV2({ client: this.client }, { Bucket: this.bucket, Prefix: areaOf(key) });
    for await (const page of pages) for (const object of page.Contents ?? []) if (object.Key) names.push(object.Key);
    const head = headOf(key);
    for (const name of [...names.filter((n) => n !== head), ...names.filter((n) => n === head)])
      await this.delete(name);
  }

  async delete(name: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: name }));
  }

  /** One entry per unfinished upload that has objects here (a listing is in key order: an upload's are together). */
  async *list(): AsyncIterable<StoredObject> {
    let current: StoredObject | undefined;
    const pages = paginateListObjectsV2({ client: this.client }, { Bucket: this.bucket, Prefix: UNFINISHED_PREFIX });
    for await (const page of pages) {
      for (const object of page.Contents ?? []) {
        const key = object.Key && keyOf(object.Key);
        if (!key) continue;
        const modifiedAt = object.LastModified ?? new Date(0);
        if (current?.key === key) {
          if (modifiedAt > current.modifiedAt) current.modifiedAt = modifiedAt;
          continue;
        }
        if (current) yield current;
        current = { key, modifiedAt };
      }
    }
    if (current) yield current;
  }

  /** The S3 upload the head object names, if there is one: how an upload whose row is gone is still aborted. */
  async namedUpload(key: string): Promise<string | undefined> {
    try {
      const { Metadata } = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: headOf(key) }));
      return Metadata?.[UPLOAD_ID_META];
    } catch (error) {
      if (isMissingObject(error)) return undefined;
      throw error;
    }
  }
}

const areaOf = (key: string) => `${UNFINISHED_PREFIX}${key}/`;
const headOf = (key: string) => `${areaOf(key)}head`;

/** The upload key an object under the unfinished prefix belongs to (its name without the prefix and last segment). */
function keyOf(name: string): string | undefined {
  if (!name.startsWith(UNFINISHED_PREFIX)) return undefined;
  const rest = name.slice(UNFINISHED_PREFIX.length);
  const cut = rest.lastIndexOf('/');
  return cut > 0 ? rest.slice(0, cut) : undefined;
}
