import { open, rm, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';

/** A part's bytes in a closed temporary file. */
export interface SpooledPart {
  path: string;
  size: number;
}

/** Bytes gathered before one write to the file: few system calls, little memory. */
const WRITE_BYTES = 1024 * 1024;

/**
 * Writes a request's bytes to temporary files of `partBytes` each, never holding more than a megabyte of them in
 * memory, and hands each file to `full` once it is: the caller sends it as a part (and removes it). What is left at
 * the end, shorter than a part, is `close()`'s.
 */
export class PartSpool {
  private handle?: FileHandle;
  private path = '';
  private size = 0;
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private files = 0;

  constructor(
    private readonly dir: string,
    private readonly partBytes: number,
    private readonly full: (part: SpooledPart) => Promise<void>,
  ) {}

  async write(chunk: Buffer): Promise<void> {
    let rest = chunk;
    while (rest.length > 0) {
      const piece = rest.subarray(0, this.partBytes - this.size - this.pendingBytes);
      rest = rest.subarray(piece.length);
      this.pending.push(piece);
      this.pendingBytes += piece.length;
      const partFull = this.size + this.pendingBytes === this.partBytes;
      if (partFull || this.pendingBytes >= WRITE_BYTES) await this.flush();
      if (partFull) await this.full(await this.closeFile());
    }
  }

  /** The bytes not yet handed over, in a closed file, or undefined when there are none. */
  async close(): Promise<SpooledPart | undefined> {
    await this.flush();
    if (this.size === 0) {
      await this.handle?.close();
      if (this.handle) await rm(this.path, { force: true });
      this.handle = undefined;
      return undefined;
    }
    return this.closeFile();
  }

  private async flush(): Promise<void> {
    if (this.pendingBytes === 0) return;
    if (!this.handle) {
      this.path = join(this.dir, `part-${++this.files}`);
      this.handle = await open(this.path, 'wx', 0o600);
    }
    const bytes = this.pending.length === 1 ? this.pending[0] : Buffer.concat(this.pending, this.pendingBytes);
    this.pending = [];
    this.pendingBytes = 0;
    for (let done = 0; done < bytes.length;) {
      done += (await this.handle.write(bytes, done, bytes.length - done)).bytesWritten;
    }
    this.size += bytes.length;
  }

  private async closeFile(): Promise<SpooledPart> {
    await this.handle!.close();
    const part = { path: this.path, size: this.size };
    this.handle = undefined;
    this.size = 0;
    return part;
  }
}
