import { Inject, Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { buffer } from 'node:stream/consumers';
import type { FileFieldDefinition } from '../../fields/file-field.decorator.js';
import { FILE_FIELDS_OPTIONS, type ResolvedFileFieldsOptions } from '../../fields/file-fields.options.js';
import { imageRulesOf } from '../../images/options/image-options.js';
import { ImageProbe, type ImageSize } from '../../images/probe/image-probe.js';
import { startsLikeRasterImage } from '../../images/probe/image-types.js';
import { FileStorage } from '../../../storage/file-storage.js';
import { typeNotAccepted } from '../admission/upload-refusals.js';
import { isAccepted } from '../../fields/accept-policy.js';
import { ByteInspector, SNIFF_BYTES } from './byte-inspector.js';
import { sniffMimeType } from './sniff-mime-type.js';

/**
 * How much of an upload that starts like a raster image is kept to read its size from: enough for the header of
 * nearly every JPEG (it follows the EXIF data and colour profile); beyond it the stored object is read back.
 */
export const IMAGE_HEAD_BYTES = 256 * 1024;

/** What an upload becomes once stored and inspected: where it went, and what the bytes were. */
export interface StoredPart {
  key: string;
  originalName: string;
  size: number;
  checksumSha256: string;
  mimeType: string;
  /** The size of a raster image, read from its header; null for other files. */
  image?: ImageSize | null;
}

/** A pass-through that hashes and counts a streamed upload and keeps its head: what the checks below read. */
export function headInspector(): ByteInspector {
  return new ByteInspector({ imageHeadBytes: IMAGE_HEAD_BYTES });
}

/** The type sniffed from a file's first bytes (those past SNIFF_BYTES are not read). */
export function sniffedType(head: Buffer): Promise<string> {
  return sniffMimeType(head.subarray(0, SNIFF_BYTES));
}

/** The type sniffed from a file's first bytes; 415 when the field does not accept it. */
export async function acceptedType(head: Buffer, accept: readonly string[] | undefined, name: string): Promise<string> {
  const mimeType = await sniffedType(head);
  if (!isAccepted(mimeType, accept)) throw typeNotAccepted(mimeType, accept, { name });
  return mimeType;
}

/**
 * Every upload's bytes meet the same checks, however they arrived (multipart stream, resumable requests, parts a
 * client sent to S3): the type sniffed from the first bytes against the field's accepted types, an image's size and
 * decoding cost from its header, the SHA-256 the record keeps (and downloads answer as their ETag).
 */
@Injectable()
export class UploadInspection {
  constructor(
    @Inject(FILE_FIELDS_OPTIONS) private readonly options: ResolvedFileFieldsOptions,
    private readonly storage: FileStorage,
    private readonly images: ImageProbe,
  ) {}

  /** An image's size by the field's rules (413/415 when it breaks them); null for other files. */
  image(
    key: string,
    head: Buffer,
    size: number,
    mimeType: string,
    field: FileFieldDefinition,
  ): Promise<ImageSize | null> {
    return this.images.inspect({ key, head, size, mimeType }, imageRulesOf(field, this.options.imageDecodeBytes));
  }

  /**
   * An object stored without passing through the service (a direct upload): its type from a ranged read of its
   * first bytes, then an image's header, and only for a file that passes, its SHA-256, read whole and streamed.
   */
  async storedObject(
    key: string,
    size: number,
    field: FileFieldDefinition,
    name: string,
  ): Promise<Omit<StoredPart, 'originalName'>> {
    let head = await this.head(key, Math.min(size, SNIFF_BYTES));
    const mimeType = await acceptedType(head, field.accept, name);
    if (startsLikeRasterImage(head) && size > head.length)
      head = await this.head(key, Math.min(size, IMAGE_HEAD_BYTES));
    const image = await this.image(key, head, size, mimeType, field);
    return { key, size, mimeType, image, checksumSha256: await this.sha256(key) };
  }

  /** The stored object's SHA-256, one sequential streamed read (about a second per 1.5 GiB on local disk). */
  async sha256(key: string): Promise<string> {
    const hash = createHash('sha256');
    for await (const chunk of await this.storage.get(key)) hash.update(chunk as Buffer);
    return hash.digest('hex');
  }

  private async head(key: string, length: number): Promise<Buffer> {
    if (length <= 0) return Buffer.alloc(0);
    return buffer(await this.storage.get(key, { start: 0, end: length - 1 }));
  }
}
