import type { Readable } from 'node:stream';

/** V8's collector, as `--expose-gc` exposes it (npm start sets the flag); undefined otherwise. */
type Collect = (options: { type: 'minor' }) => void;

/** Bytes streamed, over all uploads and downloads, between two collections of the young generation. */
export const COLLECT_EVERY_BYTES = 8 * 1024 * 1024;

/**
 * Collects V8's young generation after every 8 MiB that uploads and downloads have streamed, across the process.
 *
 * A file's bytes pass in buffers (64 KiB socket reads for an upload, 64 KiB file reads for a download) that are freed
 * only when a collection finds them unreferenced. V8 collects for their sake only once about 30 MiB of them has piled
 * up ("external memory pressure", every 70 ms at 400 MiB/s), so a 1 GiB upload raised the service's resident memory
 * by 15-30 MiB above its start-up peak. Collected every 8 MiB, it stayed below that peak (1 GiB uploads, alternated:
 * 162-165 MiB against 177-183). A collection of the young generation takes about half a millisecond here.
 *
 * Without `--expose-gc` (tests, or a process started some other way) it does nothing, and V8 collects as it would.
 */
export class StreamGarbage {
  private sinceCollection = 0;

  constructor(
    private readonly collect: Collect | undefined,
    private readonly everyBytes = COLLECT_EVERY_BYTES,
  ) {}

  /** Counts bytes an upload or a download has streamed; collects once they add up to the step. */
  streamed(bytes: number): void {
    if (!this.collect) return;
    this.sinceCollection += bytes;
    if (this.sinceCollection < this.everyBytes) return;
    this.sinceCollection = 0;
    this.collect({ type: 'minor' });
  }

  /**
   * Counts what a stream emits, with a listener beside the consumer the caller pipes it to next, in the same tick: the
   * stream starts flowing only from the next tick, and the pipe's pause when its destination pushes back holds the
   * listener too.
   */
  follow(stream: Readable): void {
    if (this.collect) stream.on('data', (chunk: Buffer) => this.streamed(chunk.length));
  }
}

/** The process's one counter: the young generation is the process's, whichever stream fills it. */
export const streamGarbage = new StreamGarbage((globalThis as { gc?: Collect }).gc);
