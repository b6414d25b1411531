import { PassThrough, type Readable, type Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { storageFault } from '../../../../errors/files.errors.js';
import type { ResumableStorage } from '../storage/resumable-storage.js';

export interface StreamedAppend {
  /** Bytes the storage holds past the offset now. */
  written: number;
  /** Why it stopped early, if it did. */
  failure?: unknown;
  /** Whether the body's side failed first (the client, or a rule of a transform), rather than the storage. */
  bodyFailed: boolean;
}

/**
 * Streams the body through the transforms into the storage at `offset`. Whichever side fails first decides the
 * failure: a transform's refusal or the client going away, or a storage fault (mapped to 507/503 where known).
 */
export async function appendStream(
  unfinished: ResumableStorage,
  key: string,
  offset: number,
  body: Readable,
  transforms: Transform[],
  signal: AbortSignal,
): Promise<StreamedAppend> {
  const out = new PassThrough();
  let bodySettled = false;
  const feeding = pipeline([body, ...transforms, out], { signal }).then(
    () => undefined,
    (error: unknown) => error,
  );
  void feeding.finally(() => (bodySettled = true));
  const stored = await unfinished.append(key, offset, out);
  const storageFirst = stored.error !== undefined && !bodySettled;
  // The storage stopped reading: the body's side would wait for it forever.
  if (stored.error) out.destroy();
  const fed = await feeding;
  if (storageFirst) {
    return { written: stored.written, failure: storageFault(stored.error) ?? stored.error, bodyFailed: false };
  }
  return { written: stored.written, failure: fed ?? stored.error, bodyFailed: fed !== undefined };
}
