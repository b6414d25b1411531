import type { Readable } from 'node:stream';
import type { StoredObject } from '../../../../storage/file-storage.js';

/** What one append stored: the bytes now durable past its offset, and why it stopped early, if it did. */
export interface AppendOutcome {
  written: number;
  /** The body's or the storage's failure; the bytes written before it are kept. */
  error?: unknown;
}

/**
 * Where the bytes of unfinished resumable uploads live until they complete, for one {@link FileStorage}. Keys are
 * those the finished files get (server-made, never a client's). An upload is appended to in order, from any
 * instance; nothing but its first bytes is ever read back before it completes.
 */
export abstract class ResumableStorage {
  /**
   * Writes the body at `offset`, first dropping anything stored past it (what a request cut short may have left).
   * Resolves, rather than rejects, when the body or the storage fails midway: what was written is kept.
   */
  abstract append(key: string, offset: number, body: Readable): Promise<AppendOutcome>;
  /** Up to `bytes` of the upload's first bytes. */
  abstract readHead(key: string, bytes: number): Promise<Buffer>;
  /** Makes the upload's bytes the stored object under `key` (FileStorage.get reads them from then on). */
  abstract finish(key: string): Promise<void>;
  /** Removes an unfinished upload's bytes; a missing one is not an error. */
  abstract abort(key: string): Promise<void>;
  /** Every unfinished upload's bytes, for sweeping those no upload row refers to. */
  abstract list(): AsyncIterable<StoredObject>;
}
