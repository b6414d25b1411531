import { createReadStream } from 'node:fs';
import { open, rm } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { FilesError, FilesErrorCode } from '../../../../../errors/files.errors.js';
import { PartSpool, type SpooledPart } from './part-spool.js';
import type { UnfinishedObjects } from './unfinished-objects.js';
import {
  advance,
  MAX_PARTS,
  PART_BYTES,
  remainderIsPart,
  type Base,
  type S3UploadState,
  type Tail,
  type UploadedPart,
} from './upload-state.js';

/** The first bytes kept in the head object: more than sniffing or any image header reads. */
export const HEAD_BYTES = 1024 * 1024;

export interface PartsOutcome {
  /** The upload's state with what this request stored; undefined when it stored nothing. */
  next?: S3UploadState;
  /** The body's or the storage's failure. */
  error?: unknown;
}

/**
 * One request's bytes on their way into an S3 upload: the tail stored before them is read back first, then all are
 * spooled to temporary files and sent part by part, each while the next fills (one part in flight). What remains at
 * the end becomes a part when it is long enough, else the new tail. A body that breaks off keeps what arrived; a
 * storage failure keeps the parts sent before it.
 */
export class PartsAppend {
  private uploadId: string | null;
  private readonly sent: UploadedPart[] = [];
  private sending: Promise<void> = Promise.resolve();
  private failure?: Error;

  constructor(
    private readonly objects: UnfinishedObjects,
    private readonly key: string,
    private readonly base: Base,
    private readonly dir: string,
  ) {
    this.uploadId = base.uploadId;
  }

  async run(body: Readable): Promise<PartsOutcome> {
    const spool = new PartSpool(this.dir, PART_BYTES, (part) => this.hand(part));
    let received = 0;
    let error: unknown;
    // A storage failure stops reading without destroying the body: the caller tells the two failures apart.
    try {
      for await (const chunk of body.iterator({ destroyOnReturn: false }) as AsyncIterable<Buffer>) {
        await this.storing(async () => {
          if (received === 0 && this.base.tail) await this.readBack(this.base.tail, spool);
          await spool.write(chunk);
        });
        received += chunk.length;
      }
    } catch (failure) {
      error = failure;
    }
    const remainder = await this.storing(() => spool.close()).catch(() => undefined);
    await this.sending;
    if (received === 0) return { error };
    const tail =
      this.failure === undefined && remainder
        ? await this.storing(() => this.store(remainder)).catch(() => null)
        : null;
    error = this.failure ?? error;
    // Nothing new is kept when no part went and no tail was stored: the upload stays where it was.
    if (this.sent.length === 0 && tail === null) return { error };
    return { next: advance(this.base, this.uploadId, this.sent, tail), error };
  }

  /** The request's last bytes: a part when S3 takes one that short, else the new tail. */
  private async store(remainder: SpooledPart): Promise<Tail | null> {
    if (remainderIsPart(remainder.size)) {
      await this.send(remainder);
      return null;
    }
    const name = await this.objects.putTail(this.key, createReadStream(remainder.path), remainder.size);
    return { name, size: remainder.size };
  }

  /** Takes a full part from the spool once the one before it is sent; its sending goes on while the next fills. */
  private async hand(part: SpooledPart): Promise<void> {
    await this.sending;
    if (this.failure !== undefined) throw this.failure;
    this.sending = this.send(part).catch((failure: unknown) => {
      this.failure ??= asError(failure);
    });
  }

  private async send(part: SpooledPart): Promise<void> {
    try {
      const number = this.base.parts.length + this.sent.length + 1;
      if (number > MAX_PARTS) {
        throw new FilesError(FilesErrorCode.FileTooLarge, `The storage takes at most ${MAX_PARTS} parts per upload.`);
      }
      this.uploadId ??= await this.objects.create(this.key);
      if (number === 1) await this.objects.putHead(this.key, this.uploadId, await firstBytes(part.path));
      const body = createReadStream(part.path, { highWaterMark: 1024 * 1024 });
      const etag = await this.objects.uploadPart(this.key, this.uploadId, number, body, part.size);
      this.sent.push({ number, etag, size: part.size });
    } finally {
      await rm(part.path, { force: true });
    }
  }

  private async readBack(tail: Tail, spool: PartSpool): Promise<void> {
    for await (const chunk of await this.objects.read(tail.name)) await spool.write(chunk as Buffer);
  }

  /** Runs a storage step, remembering its failure as the storage's. */
  private async storing<T>(step: () => Promise<T>): Promise<T> {
    try {
      return await step();
    } catch (failure) {
      this.failure ??= asError(failure);
      throw failure;
    }
  }
}

function asError(failure: unknown): Error {
  return failure instanceof Error ? failure : new Error(String(failure));
}

async function firstBytes(path: string): Promise<Buffer> {
  const handle = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(HEAD_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, HEAD_BYTES, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}
