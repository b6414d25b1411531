import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { FileStorage } from '../../../storage/file-storage.js';

/**
 * Streams a stored object into a private temporary file, runs `work` on its path and removes the file however `work`
 * ends. sharp reads a file in strips, where a stream it would first collect into one buffer in memory: this is how
 * images are read whole (to make variants, or for a header beyond the first bytes) without holding them in memory,
 * whichever storage holds them.
 */
export async function withLocalCopy<T>(
  storage: FileStorage,
  key: string,
  work: (path: string) => Promise<T>,
): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), 'file-image-'));
  try {
    const path = join(dir, 'original');
    await pipeline(await storage.get(key), createWriteStream(path, { flags: 'wx', mode: 0o600 }));
    return await work(path);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
