import { createWriteStream } from 'node:fs';
import { mkdir, open, readdir, rename, rm, stat, truncate } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { assertSafeKey, UNFINISHED_PREFIX, type StoredObject } from '../../../../storage/file-storage.js';
import { ResumableStorage, type AppendOutcome } from './resumable-storage.js';

const FILE_MODE = 0o600;
const DIR_MODE = 0o700;
/** As LocalDiskStorage writes uploads: 1 MiB may wait for the disk per file being written. */
const WRITE_BUFFER_BYTES = 1024 * 1024;

/**
 * Unfinished uploads on local disk: one file per upload under `<root>/.resumable/`, appended to in place, renamed
 * into its key at completion (same file system: no copy). The area is reserved: FileStorage listings and the orphan
 * sweeper leave it to the resumable sweep.
 */
export class LocalDiskResumableStorage extends ResumableStorage {
  private readonly area: string;

  constructor(private readonly root: string) {
    super();
    this.area = join(root, ...UNFINISHED_PREFIX.split('/').filter(Boolean));
  }

  async append(key: string, offset: number, body: Readable): Promise<AppendOutcome> {
    const path = this.unfinishedPath(key);
    if (offset === 0) await mkdir(dirname(path), { recursive: true, mode: DIR_MODE });
    else await truncate(path, offset);
    let error: unknown;
    try {
      const flags = offset === 0 ? 'w' : 'r+';
      const out = createWriteStream(path, { flags, start: offset, mode: FILE_MODE, highWaterMark: WRITE_BUFFER_BYTES });
      await pipeline(body, out);
    } catch (failure) {
      error = failure;
    }
    // What reached the file, whatever the stream said: a write in flight when the body broke may have landed.
    const size = await stat(path).then(
      (info) => info.size,
      () => offset,
    );
    return { written: Math.max(0, size - offset), error };
  }

  async readHead(key: string, bytes: number): Promise<Buffer> {
    const handle = await open(this.unfinishedPath(key), 'r');
    try {
      const buffer = Buffer.alloc(bytes);
      const { bytesRead } = await handle.read(buffer, 0, bytes, 0);
      return buffer.subarray(0, bytesRead);
    } finally {
      await handle.close();
    }
  }

  async finish(key: string): Promise<void> {
    const target = this.finishedPath(key);
    await mkdir(dirname(target), { recursive: true, mode: DIR_MODE });
    await rename(this.unfinishedPath(key), target);
  }

  async abort(key: string): Promise<void> {
    await rm(this.unfinishedPath(key), { force: true });
  }

  async *list(): AsyncIterable<StoredObject> {
    const entries = await readdir(this.area, { recursive: true, withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      if (!entry.isFile()) continue;
      const path = join(entry.parentPath, entry.name);
      const info = await stat(path).catch(() => undefined);
      if (info) yield { key: relative(this.area, path).split(sep).join('/'), modifiedAt: info.mtime };
    }
  }

  private unfinishedPath(key: string): string {
    assertSafeKey(key);
    return join(this.area, ...key.split('/'));
  }

  private finishedPath(key: string): string {
    assertSafeKey(key);
    return join(this.root, ...key.split('/'));
  }
}
