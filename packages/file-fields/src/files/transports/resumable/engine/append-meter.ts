import type { Hash } from 'node:crypto';
import { Transform, type TransformCallback } from 'node:stream';
import { ResumableError, ResumableErrorCode } from '../resumable.errors.js';

/**
 * Passes one request's bytes through while counting them and feeding the hashes that follow them (the whole file's,
 * the request's checksum). Past `limit` bytes it fails, having passed none of the chunk that crossed it.
 */
export class AppendMeter extends Transform {
  count = 0;

  constructor(
    private readonly limit: number,
    private readonly hashes: ReadonlyArray<Hash | undefined>,
  ) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    if (this.count + chunk.length > this.limit) {
      callback(
        new ResumableError(
          ResumableErrorCode.LengthExceeded,
          `The upload takes ${this.limit} more bytes at most; the request sent more.`,
        ),
      );
      return;
    }
    this.count += chunk.length;
    for (const hash of this.hashes) hash?.update(chunk);
    callback(null, chunk);
  }
}
