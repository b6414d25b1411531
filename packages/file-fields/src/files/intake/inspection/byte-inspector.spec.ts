import { createHash } from 'node:crypto';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ByteInspector, SNIFF_BYTES } from './byte-inspector.js';

describe('ByteInspector', () => {
  const inspect = async (chunks: Buffer[], imageHeadBytes?: number) => {
    const inspector = new ByteInspector({ imageHeadBytes });
    const passed: Buffer[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        passed.push(chunk);
        done();
      },
    });
    await pipeline(Readable.from(chunks), inspector, sink);
    return { inspector, passed: Buffer.concat(passed) };
  };
  const png = Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), Buffer.alloc(100_000, 3)]);

  it('passes the bytes on unchanged, counting and hashing them', async () => {
    const { inspector, passed } = await inspect([png.subarray(0, 5), png.subarray(5)]);
    expect(Buffer.compare(passed, png)).toBe(0);
    expect(inspector.size).toBe(png.length);
    expect(inspector.checksum()).toBe(createHash('sha256').update(png).digest('hex'));
  });

  it('keeps the first bytes for sniffing, and more of a raster image when asked, however the chunks fall', async () => {
    expect((await inspect([png])).inspector.head()).toEqual(png.subarray(0, SNIFF_BYTES));
    const chunked = [png.subarray(0, 3), png.subarray(3, 20), png.subarray(20, 9000), png.subarray(9000)];
    for (const chunks of [[png], chunked]) {
      expect((await inspect(chunks, 64 * 1024)).inspector.head()).toEqual(png.subarray(0, 64 * 1024));
    }
    const text = Buffer.alloc(100_000, 'a');
    expect((await inspect([text], 64 * 1024)).inspector.head()).toEqual(text.subarray(0, SNIFF_BYTES));
  });
});
