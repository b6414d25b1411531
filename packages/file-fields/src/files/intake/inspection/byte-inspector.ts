import { createHash } from 'node:crypto';
import { Transform, type TransformCallback } from 'node:stream';
import { SIGNATURE_BYTES, startsLikeRasterImage } from '../../images/probe/image-types.js';

/** Enough leading bytes for file-type to recognise every format it knows. */
export const SNIFF_BYTES = 4100;

/**
 * Passes bytes through unchanged while counting them, hashing them (SHA-256) and keeping
 * only the first few KiB for type sniffing: memory use does not grow with the file.
 * With `imageHeadBytes`, a file that starts like a raster image keeps that many instead, so that its dimensions can
 * be read from its header (a JPEG's comes after its EXIF data and colour profile) without reading it back.
 */
export class ByteInspector extends Transform {
  size = 0;
  private readonly hash = createHash('sha256');
  private readonly headChunks: Buffer[] = [];
  private headLength = 0;
  private headLimit = SNIFF_BYTES;
  private judged = false;

  constructor(private readonly options: { imageHeadBytes?: number } = {}) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.size += chunk.length;
    this.hash.update(chunk);
    const kept = this.keep(chunk, 0);
    if (!this.judged && this.headLength >= SIGNATURE_BYTES) {
      this.judged = true;
      const { imageHeadBytes = 0 } = this.options;
      if (imageHeadBytes > SNIFF_BYTES && startsLikeRasterImage(this.head())) {
        this.headLimit = imageHeadBytes;
        this.keep(chunk, kept);
      }
    }
    callback(null, chunk);
  }

  /** The hex SHA-256 of everything that passed; call once, after the stream ended. */
  checksum(): string {
    return this.hash.digest('hex');
  }

  head(): Buffer {
    return Buffer.concat(this.headChunks);
  }

  /** Keeps the chunk's bytes from `offset` on while the head has room; returns where it stopped. */
  private keep(chunk: Buffer, offset: number): number {
    if (this.headLength >= this.headLimit || offset >= chunk.length) return offset;
    const slice = chunk.subarray(offset, offset + this.headLimit - this.headLength);
    this.headChunks.push(Buffer.from(slice));
    this.headLength += slice.length;
    return offset + slice.length;
  }
}
