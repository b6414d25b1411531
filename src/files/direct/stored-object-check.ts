import { Inject, Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { buffer } from 'node:stream/consumers';
import { FILE_FIELDS_OPTIONS, type ResolvedFileFieldsOptions } from '../fields/file-fields.options.js';
import type { FileFieldDefinition } from '../fields/file-field.decorator.js';
import { typeNotAccepted } from '../upload/upload-refusals.js';
import { imageRulesOf } from '../images/image-options.js';
import { ImageProbe } from '../images/probe/image-probe.js';
import { startsLikeRasterImage } from '../images/probe/image-types.js';
import { FileStorage } from '../storage/file-storage.js';
import { isAccepted } from '../upload/accept-policy.js';
import { SNIFF_BYTES } from '../upload/byte-inspector.js';
import { sniffMimeType } from '../upload/sniff-mime-type.js';
import type { StoredPart } from '../upload/streaming-storage-engine.js';

/** As much of an image as the multipart path keeps to read its header from (the rest is read only when needed). */
const IMAGE_HEAD_BYTES = 256 * 1024;

/**
 * Judges an object a client stored itself by the rules an upload through the service meets: its type sniffed from
 * its first bytes (a ranged read), then an image's size and decoding cost from its header. Only a file that passes
 * is read whole, streaming, for its SHA-256, which the record keeps (and downloads answer as their ETag).
 */
@Injectable()
export class StoredObjectCheck {
  constructor(
    @Inject(FILE_FIELDS_OPTIONS) private readonly options: ResolvedFileFieldsOptions,
    private readonly storage: FileStorage,
    private readonly images: ImageProbe,
  ) {}

  /** The object as a stored part, or a 413/415 problem when the field refuses it. */
  async check(
    key: string,
    size: number,
    field: FileFieldDefinition,
    name: string,
  ): Promise<Omit<StoredPart, 'originalName'>> {
    let head = await this.head(key, Math.min(size, SNIFF_BYTES));
    const mimeType = await sniffMimeType(head);
    if (!isAccepted(mimeType, field.accept)) throw typeNotAccepted(mimeType, field.accept, { name });
    if (startsLikeRasterImage(head) && size > head.length)
      head = await this.head(key, Math.min(size, IMAGE_HEAD_BYTES));
    const rules = imageRulesOf(field, this.options.imageDecodeBytes);
    const image = await this.images.inspect({ key, head, size, mimeType }, rules);
    return { key, size, mimeType, image, checksumSha256: await this.sha256(key) };
  }

  private async head(key: string, length: number): Promise<Buffer> {
    return buffer(await this.storage.get(key, { start: 0, end: length - 1 }));
  }

  private async sha256(key: string): Promise<string> {
    const hash = createHash('sha256');
    for await (const chunk of await this.storage.get(key)) hash.update(chunk as Buffer);
    return hash.digest('hex');
  }
}
