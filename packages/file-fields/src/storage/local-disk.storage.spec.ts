import { mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { LocalDiskStorage } from './local-disk.storage.js';

describe('LocalDiskStorage', () => {
  let root: string;
  let storage: LocalDiskStorage;

  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'storage-'));
    storage = new LocalDiskStorage(root);
  });
  afterEach(() => rm(root, { recursive: true, force: true }));

  it('stores, reads whole and by range, and deletes', async () => {
    await storage.put('product/1/abc', Readable.from([Buffer.from('hello world')]));
    await expect(storage.exists('product/1/abc')).resolves.toBe(true);
    await expect(text(await storage.get('product/1/abc'))).resolves.toBe('hello world');
    await expect(text(await storage.get('product/1/abc', { start: 6, end: 10 }))).resolves.toBe('world');
    await storage.delete('product/1/abc');
    await expect(storage.exists('product/1/abc')).resolves.toBe(false);
    await expect(storage.delete('product/1/abc')).resolves.toBeUndefined();
  });

  it('leaves no file behind when the source stream fails', async () => {
    const failing = new Readable({
      read() {
        this.push(Buffer.from('partial'));
        this.destroy(new Error('client went away'));
      },
    });
    await expect(storage.put('product/1/broken', failing)).rejects.toThrow('client went away');
    expect(await readdir(join(root, 'product', '1'))).toEqual([]);
  });

  it('creates directories 0700 and files 0600', async () => {
    await storage.put('product/1/private', Readable.from([Buffer.from('secret')]));
    expect((await stat(join(root, 'product'))).mode & 0o777).toBe(0o700);
    expect((await stat(join(root, 'product', '1'))).mode & 0o777).toBe(0o700);
    expect((await stat(join(root, 'product', '1', 'private'))).mode & 0o777).toBe(0o600);
  });

  it('checks by writing a probe under the reserved prefix, which it removes and never lists', async () => {
    await storage.put('product/1/kept', Readable.from([Buffer.from('x')]));
    await expect(storage.check()).resolves.toBeUndefined();
    expect(await readdir(join(root, '.health'))).toEqual([]);
    await writeFile(join(root, '.health', 'probe-left-by-a-crash'), 'ok');
    const keys: string[] = [];
    for await (const object of storage.list()) keys.push(object.key);
    expect(keys).toEqual(['product/1/kept']);
  });

  it('fails the check when the probe cannot be written', async () => {
    await writeFile(join(root, '.health'), 'a file where the probe directory belongs');
    await expect(storage.check()).rejects.toThrow();
  });

  it.each(['../escape', '/etc/passwd', 'product/../../x', 'Product/1', 'a//b', 'product/1/..', ''])(
    'refuses the key %p',
    async (key) => {
      await expect(storage.put(key, Readable.from(['x']))).rejects.toThrow(/Unsafe storage key/);
      await expect(storage.get(key)).rejects.toThrow(/Unsafe storage key/);
    },
  );
});
