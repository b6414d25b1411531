import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { createDeflate, crc32 } from 'node:zlib';
import request from 'supertest';
import sharp from 'sharp';
import { FileVariants, FileStorage } from '@file-fields/nest';
import { expectProblem } from './support/fixtures.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import { eventually } from './support/wait.js';

const MiB = 1024 * 1024;
/** What the process may grow by: far below what decoding one of these bombs takes (over 400 MiB each). */
const BOUND = 120 * MiB;

/** A flat AVIF: a few hundred bytes whose decoder holds the whole raster (about 20 bytes a pixel) at once. */
const avif = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: { r: 40, g: 120, b: 200 } } })
    .avif({ effort: 0 })
    .toBuffer();

/** A valid all-black Adam7-interlaced 16-bit RGB PNG, deflated as it is made: interlacing makes the decoder keep it all. */
async function interlacedPng(side: number): Promise<Buffer> {
  const chunk = (type: string, data: Buffer) => {
    const head = Buffer.alloc(8);
    head.writeUInt32BE(data.length);
    head.write(type, 4, 'latin1');
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])));
    return Buffer.concat([head, data, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(side, 0);
  header.writeUInt32BE(side, 4);
  header.set([16, 2, 0, 0, 1], 8); // 16 bits, RGB, deflate, no filter, Adam7
  const deflate = createDeflate({ level: 1 });
  const compressed: Buffer[] = [];
  deflate.on('data', (data: Buffer) => compressed.push(data));
  const ended = new Promise((resolve) => deflate.on('end', resolve));
  const zeros = Buffer.alloc(MiB);
  const passes = [
    [0, 0, 8, 8],
    [4, 0, 8, 8],
    [0, 4, 4, 8],
    [2, 0, 4, 4],
    [0, 2, 2, 4],
    [1, 0, 2, 2],
    [0, 1, 1, 2],
  ];
  for (const [x, y, dx, dy] of passes) {
    // Each row of a pass: its filter byte, then 6 bytes a pixel.
    let left = Math.ceil((side - y) / dy) * (1 + Math.ceil((side - x) / dx) * 6);
    for (; left > 0; left -= zeros.length) {
      if (!deflate.write(zeros.subarray(0, Math.min(left, zeros.length)))) {
        await new Promise((resolve) => deflate.once('drain', resolve));
      }
    }
  }
  deflate.end();
  await ended;
  const signature = Buffer.from('89504e470d0a1a0a', 'hex');
  const idat = chunk('IDAT', Buffer.concat(compressed));
  return Buffer.concat([signature, chunk('IHDR', header), idat, chunk('IEND', Buffer.alloc(0))]);
}

/** How much `work` (and any variant it leaves being made) grew this process's resident memory at its peak. */
async function peakGrowth<T>(t: TestApp, work: () => Promise<T>): Promise<{ value: T; grown: number }> {
  const before = process.memoryUsage.rss();
  let peak = before;
  // libvips decodes on threads of its own, so this timer keeps firing while an image is decoded.
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 5);
  try {
    const value = await work();
    await t.app.get(FileVariants).settled();
    return { value, grown: Math.max(peak, process.memoryUsage.rss()) - before };
  } finally {
    clearInterval(timer);
  }
}

describe('Images whose header promises a huge raster (decompression bombs for the decoders)', () => {
  let t: TestApp;
  let bombs: { avif: Buffer; png: Buffer };
  const createProduct = async () =>
    (await t.http.post('/products').send({ name: 'Lamp' }).expect(201)).body.id as number;
  const storedKeys = async (prefix: string) => {
    const keys: string[] = [];
    for await (const object of t.app.get(FileStorage).list()) if (object.key.startsWith(prefix)) keys.push(object.key);
    return keys;
  };

  beforeAll(async () => {
    t = await startTestApp();
    // 20 Mpx of AVIF in about 500 bytes; 64 Mpx of 16-bit interlaced PNG in about 1.6 MB.
    bombs = { avif: await avif(5000, 4000), png: await interlacedPng(8000) };
  });
  afterAll(async () => t.close({ destroy: true }));

  it.each([
    ['an AVIF', 'cover', 'avif', /AVIF, 5000×4000/],
    ['an interlaced 16-bit PNG', 'gallery', 'png', /interlaced PNG, 8000×8000/],
  ] as const)(
    'refuses %s at upload with 413 naming the limit; nothing decoded or stored',
    async (_, field, kind, what) => {
      const id = await createProduct();
      const { value: res, grown } = await peakGrowth(t, () =>
        t.http.post(`/files/product/${id}/${field}`).attach('file', bombs[kind], `bomb.${kind}`).timeout(30_000),
      );
      const problem = expectProblem(res, 413, 'image-too-large');
      expect(problem.detail).toMatch(what);
      expect(problem.detail).toMatch(/at most 256 MiB/);
      expect(grown).toBeLessThan(BOUND);
      expect(await storedKeys(`product/${id}/`)).toEqual([]);
      await request(t.url).get('/health').timeout(5_000).expect(200);
    },
  );

  it('still makes the variants of an AVIF of a usual size', async () => {
    const id = await createProduct();
    const res = await t.http.post(`/files/product/${id}/cover`).attach('file', await avif(1200, 900), 'c.avif');
    expect(res.status).toBe(201);
    const cover = await eventually('the variants of the AVIF cover', async () => {
      const body = (await t.http.get(`/products/${id}`).expect(200)).body.cover as { variants: object };
      return Object.values(body.variants).includes(null) ? undefined : body;
    });
    expect(cover.variants).toMatchObject({ thumb: { width: 200, height: 200 }, large: { width: 1200, height: 900 } });
  });

  it('marks the variants of such an original already stored failed for good, without decoding it', async () => {
    const id = await createProduct();
    const small = await sharp({ create: { width: 40, height: 30, channels: 3, background: 'gray' } })
      .png()
      .toBuffer();
    const file = (await t.http.post(`/files/product/${id}/cover`).attach('file', small, 'c.png').expect(201)).body as {
      id: number;
    };
    await t.app.get(FileVariants).settled();
    // Stored before the limit existed: the record now names the bomb, and none of its variants is made.
    const key = `product/${id}/${randomUUID()}`;
    await t.app.get(FileStorage).put(key, Readable.from([bombs.avif]));
    await t.dataSource.query(
      `UPDATE file_records SET path = '${key}', mime_type = 'image/avif', variants = NULL WHERE id = ${file.id}`,
    );

    const { value: res, grown } = await peakGrowth(t, () =>
      t.http.get(`/files/${file.id}/variants/thumb`).timeout(30_000),
    );
    expectProblem(res, 404, 'variant-not-found');
    expect(grown).toBeLessThan(BOUND);
    const [row] = await t.dataSource.query<Array<{ variants: string }>>(
      `SELECT variants FROM file_records WHERE id = ${file.id}`,
    );
    const states = JSON.parse(row.variants) as Record<string, { failed?: boolean }>;
    expect(states).toEqual({
      thumb: { key: expect.stringContaining(key), failed: true },
      large: { key: expect.stringContaining(key), failed: true },
    });
    // Recorded: the next reads neither wait for nor start another attempt.
    expect((await t.http.get(`/products/${id}`).expect(200)).body.cover.variants).toEqual({});
    expectProblem(await t.http.get(`/files/${file.id}/variants/large`), 404, 'variant-not-found');
    await request(t.url).get('/health').timeout(5_000).expect(200);
  });
});
