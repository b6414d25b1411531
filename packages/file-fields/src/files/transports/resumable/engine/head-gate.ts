import { Transform, type TransformCallback } from 'node:stream';
import { SNIFF_BYTES } from '../../../intake/inspection/byte-inspector.js';

/** Decides whether a file that starts with these bytes may be stored, throwing the answer when it may not. */
export type HeadJudge = (head: Buffer) => Promise<string>;

/**
 * Holds an upload's first bytes back until enough have arrived to sniff its type (`known`: those stored by earlier
 * requests), then lets them through only if `judge` accepts them: a refused type never reaches the storage. A body
 * that ends before that passes unjudged, unless it ends the upload (`isLast`), which is then judged on what it has.
 */
export class HeadGate extends Transform {
  /** The sniffed type, once judged. */
  mimeType?: string;
  private readonly held: Buffer[] = [];
  private heldLength = 0;

  constructor(
    private readonly known: Buffer,
    private readonly judge: HeadJudge,
    private readonly isLast: (received: number) => boolean,
  ) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    if (this.mimeType !== undefined) return callback(null, chunk);
    this.held.push(chunk);
    this.heldLength += chunk.length;
    if (this.known.length + this.heldLength < SNIFF_BYTES) return callback();
    this.release(callback);
  }

  override _flush(callback: TransformCallback): void {
    if (this.mimeType !== undefined || !this.isLast(this.heldLength)) {
      for (const chunk of this.held.splice(0)) this.push(chunk);
      return callback();
    }
    this.release(callback);
  }

  private release(callback: TransformCallback): void {
    const head = Buffer.concat([this.known, ...this.held]).subarray(0, SNIFF_BYTES);
    this.judge(head).then(
      (mimeType) => {
        this.mimeType = mimeType;
        for (const chunk of this.held.splice(0)) this.push(chunk);
        callback();
      },
      (error: unknown) => callback(error as Error),
    );
  }
}
