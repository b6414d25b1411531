import { createHash } from 'node:crypto';
import { Transform, type TransformCallback } from 'node:stream';

/** Enough leading bytes for file-type to recognise every format it knows. */
export const SNIFF_BYTES = 4100;

/**
 * Passes bytes through unchanged while counting them, hashing them (SHA-256) and keeping
 * only the first few KiB for type sniffing: memory use does not grow with the file.
 */
export class ByteInspector extends Transform {
  size = 0;
  private readonly hash = createHash('sha256');
  private readonly headChunks: Buffer[] = [];
  private headLength = 0;

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.size += chunk.length;
    this.hash.update(chunk);
    if (this.headLength < SNIFF_BYTES) {
      const slice = chunk.subarray(0, SNIFF_BYTES - this.headLength);
      this.headChunks.push(Buffer.from(slice));
      this.headLength += slice.length;
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
}
