import type { Request } from 'express';
import { PassThrough, Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { FileStorage, type ByteRange, type StoredObject } from '../../../storage/file-storage.js';
import { StreamingStorageEngine } from './streaming-storage-engine.js';

/** A storage whose disk fills up after the first chunk, failing as a real write stream does. */
class FullDisk extends FileStorage {
  deleted: string[] = [];
  async put(_key: string, body: Readable): Promise<void> {
    const disk = new Writable({
      write(_chunk, _encoding, callback) {
        callback(Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' }));
      },
    });
    await pipeline(body, disk);
  }
  get(_key: string, _range?: ByteRange): Promise<Readable> {
    throw new Error('unused');
  }
  delete(key: string): Promise<void> {
    this.deleted.push(key);
    return Promise.resolve();
  }
  exists(): Promise<boolean> {
    return Promise.resolve(false);
  }
  async *list(): AsyncIterable<StoredObject> {}
  check(): Promise<void> {
    return Promise.resolve();
  }
}

describe('StreamingStorageEngine', () => {
  it('answers a storage that fails mid-stream (full disk) with 507, whichever side noticed first', async () => {
    const storage = new FullDisk();
    const engine = new StreamingStorageEngine(storage, { newKey: () => 'product/1/key' });
    const stream = new PassThrough();
    const file = { stream, originalname: 'a.bin' } as unknown as Express.Multer.File;
    const outcome = new Promise<unknown>((resolve) => engine._handleFile({} as Request, file, resolve));
    stream.write(Buffer.alloc(1024, 1));
    stream.write(Buffer.alloc(1024, 2));
    await expect(outcome).resolves.toMatchObject({ status: 507, code: 'storage-full' });
    expect(storage.deleted).toEqual(['product/1/key']);
  });
});
