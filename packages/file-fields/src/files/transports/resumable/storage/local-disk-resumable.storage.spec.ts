import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { setTimeout as delay } from 'node:timers/promises';
import { LocalDiskStorage } from '../../../../storage/local-disk.storage.js';
import { LocalDiskResumableStorage } from './local-disk-resumable.storage.js';

describe('LocalDiskResumableStorage', () => {
  let root: string;
  let storage: LocalDiskResumableStorage;
  const KEY = 'article/1/0b6f3c1e-4f7a-4c39-9a53-1a2b3c4d5e6f';
  const unfinished = () => join(root, '.resumable', 'article', '1', '0b6f3c1e-4f7a-4c39-9a53-1a2b3c4d5e6f');

  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'resumable-'));
    storage = new LocalDiskResumableStorage(root);
  });
  afterEach(() => rm(root, { recursive: true, force: true }));

  it('appends at offsets, dropping what a cut-short request left past the offset', async () => {
    expect(await storage.append(KEY, 0, Readable.from([Buffer.from('hello ')]))).toEqual({
      written: 6,
      error: undefined,
    });
    await writeFile(unfinished(), 'hello LEFTOVER');
    expect((await storage.append(KEY, 6, Readable.from([Buffer.from('world')]))).written).toBe(5);
    expect(await readFile(unfinished(), 'utf8')).toBe('hello world');
    expect((await storage.readHead(KEY, 5)).toString()).toBe('hello');
    expect((await storage.readHead(KEY, 100)).toString()).toBe('hello world');
  });

  it('keeps the bytes written before the body failed, and says why it stopped', async () => {
    const body = new Readable({ read() {} });
    body.push(Buffer.from('kept'));
    const appending = storage.append(KEY, 0, body);
    // The connection drops once the first bytes are on disk, however long the disk (or a busy machine) takes.
    const deadline = Date.now() + 30_000;
    while ((await stat(unfinished()).catch(() => undefined))?.size !== 4 && Date.now() < deadline) {
      await delay(10);
    }
    body.destroy(new Error('connection reset'));
    const outcome = await appending;
    expect(outcome).toEqual({ written: 4, error: new Error('connection reset') });
    expect(await readFile(unfinished(), 'utf8')).toBe('kept');
  });

  it('finishes by renaming into the key, where the file storage reads it, and lists and aborts unfinished ones', async () => {
    await storage.append(KEY, 0, Readable.from([Buffer.from('done')]));
    const other = 'article/1/11111111-2222-4333-8444-555555555555';
    await storage.append(other, 0, Readable.from([Buffer.from('x')]));
    const listed = [];
    for await (const object of storage.list()) listed.push(object.key);
    expect(listed.sort()).toEqual([KEY, other].sort());
    const files = new LocalDiskStorage(root);
    const fileKeys = [];
    for await (const object of files.list()) fileKeys.push(object.key);
    expect(fileKeys).toEqual([]); // the unfinished area is reserved
    await storage.finish(KEY);
    expect(await files.exists(KEY)).toBe(true);
    await storage.abort(other);
    await storage.abort(other);
    const left = [];
    for await (const object of storage.list()) left.push(object.key);
    expect(left).toEqual([]);
  });

  it('refuses keys that could leave the root', async () => {
    await expect(storage.append('../etc/passwd', 0, Readable.from([]))).rejects.toThrow('Unsafe storage key');
  });
});
