import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { access, constants, mkdir, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  assertSafeKey,
  FileStorage,
  isReservedKey,
  RESERVED_PREFIX,
  type ByteRange,
  type StoredObject,
} from './file-storage.js';

/** Temporary files carry this suffix until they are complete, so a crash never leaves a half file under a real key. */
const TEMP_SUFFIX = '.partial';

/** Stored files are private to the service's user: other local users must not read uploads. */
const FILE_MODE = 0o600;
const DIR_MODE = 0o700;
/**
 * How much of an upload may wait for the disk, per file being written. With fs's default (16 KiB) each 64 KiB chunk
 * from the socket waited for the write before it: a 1 GiB upload ran at 320-364 MiB/s, against 392-460 with 1 MiB,
 * peaking at 187 MiB and 185-186 MiB (`npm run bench:memory`, 3 runs each, alternated).
 */
const WRITE_BUFFER_BYTES = 1024 * 1024;

/** Stores files on local disk under one root directory; every path is confined to that root. */
export class LocalDiskStorage extends FileStorage {
  private readonly root: string;

  constructor(root: string) {
    super();
    this.root = resolve(root);
  }

  override localRoot(): string {
    return this.root;
  }

  async put(key: string, body: Readable): Promise<void> {
    const target = this.pathOf(key);
    const temp = `${target}.${randomUUID()}${TEMP_SUFFIX}`;
    await mkdir(dirname(target), { recursive: true, mode: DIR_MODE });
    try {
      await pipeline(
        body,
        createWriteStream(temp, { flags: 'wx', mode: FILE_MODE, highWaterMark: WRITE_BUFFER_BYTES }),
      );
      await rename(temp, target);
    } catch (error) {
      await rm(temp, { force: true });
      throw error;
    }
  }

  async get(key: string, range?: ByteRange): Promise<Readable> {
    const path = this.pathOf(key);
    await access(path, constants.R_OK);
    return createReadStream(path, range);
  }

  async delete(key: string): Promise<void> {
    await rm(this.pathOf(key), { force: true });
  }

  async exists(key: string): Promise<boolean> {
    return stat(this.pathOf(key)).then(
      (s) => s.isFile(),
      () => false,
    );
  }

  async *list(): AsyncIterable<StoredObject> {
    const entries = await readdir(this.root, { recursive: true, withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      if (!entry.isFile()) continue;
      const path = join(entry.parentPath, entry.name);
      const key = relative(this.root, path).split(sep).join('/');
      if (isReservedKey(key)) continue;
      const info = await stat(path).catch(() => undefined);
      if (info) yield { key, modifiedAt: info.mtime };
    }
  }

  /**
   * Creates and removes a small file, as an upload would: a full (ENOSPC) or read-only (EROFS) disk fails here,
   * where a mere access() check would still pass. The probe lives under the reserved prefix.
   */
  async check(): Promise<void> {
    const dir = join(this.root, ...RESERVED_PREFIX.split('/').filter(Boolean));
    await mkdir(dir, { recursive: true, mode: DIR_MODE });
    const probe = join(dir, `probe-${randomUUID()}`);
    try {
      await writeFile(probe, 'ok', { flag: 'wx', mode: FILE_MODE });
    } finally {
      await rm(probe, { force: true });
    }
  }

  private pathOf(key: string): string {
    assertSafeKey(key);
    const path = join(this.root, ...key.split('/'));
    if (!path.startsWith(this.root + sep)) throw new Error(`Storage key escapes the root: ${key}`);
    return path;
  }
}
