import { jest } from '@jest/globals';
import { Readable } from 'node:stream';
import { promisify } from 'node:util';
import { crc32, deflate } from 'node:zlib';
import request from 'supertest';
import sharp from 'sharp';
import { FileVariants, OrphanSweeper, FileStorage, FileUrls } from '@file-fields/nest';
import { basic, createIntegration } from './support/admin-api.js';
import { expectProblem, PDF } from './support/fixtures.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import { eventually } from './support/wait.js';

// Signed URLs are FileUrls' business (tested on their own); any absolute URL naming the variant stands in here.
jest
  .spyOn(FileUrls.prototype, 'urlOf')
  .mockImplementation((record, variant) =>
    Promise.resolve(`http://files.test/${record.id}/${variant?.storageKey ?? record.storageKey}?signature=test`),
  );

interface Variant {
  url: string;
  width: number;
  height: number;
  size: number;
  mime_type: string;
}
interface FileBody {
  id: number;
  updated_at: string;
  path: string;
  mime_type: string;
  width: number | null;
  height: number | null;
  variants?: Record<string, Variant | null>;
}

const MiB = 1024 * 1024;
/** Making a 2000 × 1500 image's variants takes a fraction of a second alone, and many seconds on a loaded machine. */
const VARIANTS_DEADLINE_MS = 60_000;

/** A plain image of the size, in the format. */
const image = (format: 'png' | 'jpeg' | 'webp', width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: { r: 40, g: 120, b: 200 } } })
    .toFormat(format)
    .toBuffer();

/**
 * A decompression bomb: a valid PNG of 20000 × 20000 one-bit pixels, all zero, that deflates to about 50 KB; decoded
 * it would take 400 MB (one byte per pixel) or more.
 */
async function pixelBomb(side = 20_000): Promise<Buffer> {
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(Buffer.concat([Buffer.from(type), data])));
    return Buffer.concat([length, Buffer.from(type), data, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(side, 0);
  header.writeUInt32BE(side, 4);
  header[8] = 1; // bit depth 1, greyscale, no interlace
  const rows = Buffer.alloc(side * (1 + side / 8));
  const pixels = await promisify(deflate)(rows, { level: 9 });
  const signature = Buffer.from('89504e470d0a1a0a', 'hex');
  return Buffer.concat([signature, chunk('IHDR', header), chunk('IDAT', pixels), chunk('IEND', Buffer.alloc(0))]);
}

describe('Image sizes and variants declared on file fields', () => {
  let t: TestApp;
  const api = () => t.http;
  const storedKeys = async (prefix: string): Promise<string[]> => {
    const keys: string[] = [];
    for await (const object of t.app.get(FileStorage).list()) if (object.key.startsWith(prefix)) keys.push(object.key);
    return keys.sort();
  };
  const createProduct = async () =>
    (await api().post('/products').send({ name: 'Lamp' }).expect(201)).body.id as number;
  const upload = (path: string, bytes: Buffer, name: string) => api().post(path).attach('file', bytes, name);
  /**
   * Waits for the variants being made to be made (or to fail): the event to wait on, however loaded the machine. A
   * read that finds a variant missing starts it again, hence the loop; its deadline is only there to end a hang.
   */
  const madeVariants = <T>(what: string, probe: () => Promise<T | undefined>) =>
    eventually(
      what,
      async () => {
        await t.app.get(FileVariants).settled();
        return probe();
      },
      VARIANTS_DEADLINE_MS,
    );
  /** The product's cover once every variant of it is made (or could not be). */
  const madeCover = (id: number) =>
    madeVariants(`the variants of product ${id}'s cover`, async () => {
      const cover = (await api().get(`/products/${id}`).expect(200)).body.cover as FileBody;
      return Object.values(cover.variants ?? {}).includes(null) ? undefined : cover;
    });
  const download = async (id: number, name: string) =>
    (await api().get(`/files/${id}/variants/${name}`).buffer(true).expect(200)).body as Buffer;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => t.close({ destroy: true }));

  describe.each(['png', 'jpeg', 'webp'] as const)('a %s cover', (format) => {
    let id: number;
    let cover: FileBody;

    beforeAll(async () => {
      id = await createProduct();
      const uploaded = await upload(`/files/product/${id}/cover`, await image(format, 2000, 1500), `c.${format}`);
      expect(uploaded.status).toBe(201);
      expect(uploaded.body).toMatchObject({ width: 2000, height: 1500, variants: { thumb: null, large: null } });
      cover = await madeCover(id);
      // The file did not change when its variants were made.
      expect(cover.updated_at).toBe(uploaded.body.updated_at);
    });

    it('lists its variants with the declared sizes: thumb 200×200 in its own format, large 1600 wide in WebP', () => {
      expect(cover).toMatchObject({ mime_type: `image/${format}`, width: 2000, height: 1500 });
      expect(cover.variants).toEqual({
        thumb: {
          url: expect.any(String),
          width: 200,
          height: 200,
          size: expect.any(Number),
          mime_type: `image/${format}`,
        },
        large: {
          url: expect.any(String),
          width: 1600,
          height: 1200,
          size: expect.any(Number),
          mime_type: 'image/webp',
        },
      });
      expect(cover.variants?.thumb?.url).toMatch(new RegExp(`^http://files\\.test/${cover.id}/${cover.path}\\.thumb-`));
    });

    it('serves each variant with the declared size (read back with sharp) and its headers', async () => {
      const thumb = await api().get(`/files/${cover.id}/variants/thumb`).buffer(true).expect(200);
      expect(thumb.headers['content-type']).toBe(`image/${format}`);
      expect(Number(thumb.headers['content-length'])).toBe(cover.variants?.thumb?.size);
      expect(thumb.headers['x-content-type-options']).toBe('nosniff');
      expect(thumb.headers['content-disposition']).toMatch(new RegExp(`c-thumb\\.(png|jpg|webp)`));
      await expect(sharp(thumb.body as Buffer).metadata()).resolves.toMatchObject({ width: 200, height: 200, format });
      const large = await sharp(await download(cover.id, 'large')).metadata();
      expect(large).toMatchObject({ width: 1600, height: 1200, format: 'webp' });
      const again = await api().get(`/files/${cover.id}/variants/thumb`).set('If-None-Match', thumb.headers.etag);
      expect(again.status).toBe(304);
    });
  });

  it('records the size of an image as shown (EXIF orientation applied), and none for other files', async () => {
    const id = await createProduct();
    const rotated = await sharp(await image('jpeg', 300, 200))
      .withMetadata({ orientation: 6 })
      .toBuffer();
    const res = await upload(`/files/product/${id}/gallery`, rotated, 'r.jpg').expect(201);
    expect(res.body).toMatchObject({ width: 200, height: 300 });
    const pdf = await upload(`/files/product/${id}/gallery`, PDF, 'p.pdf').expect(201);
    expect(pdf.body).toMatchObject({ width: null, height: null, variants: {} });
    const article = (await api().post('/articles').send({ title: 'a' }).expect(201)).body.id as number;
    const plain = await upload(`/files/article/${article}/thumbnail`, await image('png', 30, 20), 't.png').expect(201);
    expect(plain.body).toMatchObject({ width: 30, height: 20 });
    expect(plain.body).not.toHaveProperty('variants');
  });

  it('makes gallery thumbs of images, none of a PDF, and keeps the first frame of an animated GIF', async () => {
    const id = await createProduct();
    const frames = 3;
    const raw = Buffer.alloc(400 * 300 * frames * 3);
    for (let frame = 0; frame < frames; frame++) raw.fill(70 * (frame + 1), frame * 400 * 300 * 3);
    const gif = await sharp(raw, { raw: { width: 400, height: 300 * frames, channels: 3, pageHeight: 300 } })
      .gif()
      .toBuffer();
    expect((await sharp(gif).metadata()).pages).toBe(frames);
    await upload(`/files/product/${id}/gallery`, gif, 'anim.gif').expect(201);
    await upload(`/files/product/${id}/gallery`, PDF, 'doc.pdf').expect(201);
    const gallery = await madeVariants('the gallery thumbs', async () => {
      const files = (await api().get(`/products/${id}`).expect(200)).body.gallery as FileBody[];
      return files[0].variants?.thumb ? files : undefined;
    });
    expect(gallery[0]).toMatchObject({ width: 400, height: 300, variants: { thumb: { width: 200, height: 200 } } });
    expect(gallery[1].variants).toEqual({});
    const thumb = await sharp(await download(gallery[0].id, 'thumb'), { animated: true }).metadata();
    expect(thumb).toMatchObject({ format: 'gif', width: 200, height: 200 });
    expect(thumb.pages ?? 1).toBe(1);
    expectProblem(await api().get(`/files/${gallery[1].id}/variants/thumb`), 404, 'variant-not-found');
  });

  it('answers 404 for a variant its field does not declare, and for a file without variants', async () => {
    const id = await createProduct();
    const cover = (await upload(`/files/product/${id}/cover`, await image('png', 50, 50), 'c.png').expect(201))
      .body as FileBody;
    expectProblem(await api().get(`/files/${cover.id}/variants/huge`), 404, 'variant-not-found');
    expectProblem(await api().get(`/files/${cover.id}/variants/THUMB`), 404, 'variant-not-found');
    expectProblem(await api().get('/files/999999/variants/thumb'), 404, 'file-not-found');
    const article = (await api().post('/articles').send({ title: 'a' }).expect(201)).body.id as number;
    const plain = (await upload(`/files/article/${article}/thumbnail`, await image('png', 9, 9), 't.png').expect(201))
      .body as FileBody;
    expectProblem(await api().get(`/files/${plain.id}/variants/thumb`), 404, 'variant-not-found');
  });

  it('makes a missing variant when it is first asked for', async () => {
    const id = await createProduct();
    const cover = (await upload(`/files/product/${id}/cover`, await image('png', 640, 480), 'c.png').expect(201))
      .body as FileBody;
    await madeCover(id);
    const [thumbKey] = (await storedKeys(`product/${id}/`)).filter((key) => key.includes('.thumb-'));
    await t.app.get(FileStorage).delete(thumbKey);
    await t.dataSource.query(`UPDATE file_records SET variants = NULL WHERE id = ${cover.id}`);
    const thumb = await sharp(await download(cover.id, 'thumb')).metadata();
    expect(thumb).toMatchObject({ width: 200, height: 200, format: 'png' });
    expect(await storedKeys(thumbKey)).toEqual([thumbKey]);
    expect((await madeCover(id)).variants?.thumb).toMatchObject({ width: 200, height: 200 });
  });

  it('needs the read permission of the entity type, as the file content does', async () => {
    const id = await createProduct();
    const cover = (await upload(`/files/product/${id}/cover`, await image('png', 50, 50), 'c.png').expect(201))
      .body as FileBody;
    const tokenFor = async (permissions: string[]) => {
      const integration = await createIntegration(t, permissions);
      const res = await request(t.url)
        .post('/api/oauth/token')
        .set('Authorization', basic(integration.access_key_id, integration.secret_access_key))
        .type('form')
        .send({ grant_type: 'client_credentials' })
        .expect(200);
      return `Bearer ${res.body.access_token as string}`;
    };
    const path = `/files/${cover.id}/variants/thumb`;
    expectProblem(await request(t.url).get(path), 401);
    expectProblem(
      await request(t.url)
        .get(path)
        .set('Authorization', await tokenFor(['article:read'])),
      404,
    );
    await request(t.url)
      .get(path)
      .set('Authorization', await tokenFor(['product:read']))
      .expect(200);
  });

  describe('hostile images', () => {
    it('refuses a 20000×20000 pixel bomb with 413 before decoding it: nothing stored, no jump in memory', async () => {
      const id = await createProduct();
      const bomb = await pixelBomb();
      expect(bomb.length).toBeLessThan(MiB);
      const before = process.memoryUsage.rss();
      const res = await upload(`/files/product/${id}/cover`, bomb, 'bomb.png');
      const grown = process.memoryUsage.rss() - before;
      const problem = expectProblem(res, 413, 'image-too-large');
      expect(problem.detail).toMatch(/400000000 pixels/);
      expect(grown).toBeLessThan(100 * MiB);
      expect(await storedKeys(`product/${id}/`)).toEqual([]);
      expect((await api().get(`/products/${id}`).expect(200)).body.cover).toBeNull();
    });

    it('refuses an image that does not decode with 415, nothing stored', async () => {
      const id = await createProduct();
      const broken = Buffer.concat([Buffer.from('GIF89a'), Buffer.alloc(64, 1)]);
      expectProblem(await upload(`/files/product/${id}/cover`, broken, 'x.gif'), 415, 'image-not-decodable');
      const jpeg = Buffer.concat([Buffer.from('ffd8ffe0', 'hex'), Buffer.alloc(300, 7)]);
      expectProblem(await upload(`/files/product/${id}/gallery`, jpeg, 'y.jpg'), 415, 'image-not-decodable');
      expect(await storedKeys(`product/${id}/`)).toEqual([]);
    });

    it('keeps an image whose header reads but whose pixels are broken, without variants', async () => {
      const id = await createProduct();
      const png = await image('png', 300, 300);
      const truncated = png.subarray(0, png.length - 30);
      const res = await upload(`/files/product/${id}/cover`, truncated, 't.png').expect(201);
      expect(res.body).toMatchObject({ width: 300, height: 300, variants: { thumb: null, large: null } });
      expect((await madeCover(id)).variants).toEqual({});
      expectProblem(await api().get(`/files/${res.body.id as number}/variants/thumb`), 404, 'variant-not-found');
      expect(await storedKeys(`product/${id}/`)).toEqual([res.body.path]);
    });
  });

  describe('storage', () => {
    it('stores variants next to the original, keeps them from the orphan sweeper, removes them with the file', async () => {
      const id = await createProduct();
      const first = (await upload(`/files/product/${id}/cover`, await image('jpeg', 900, 600), 'a.jpg').expect(201))
        .body as FileBody;
      await madeCover(id);
      const firstKeys = await storedKeys(`product/${id}/`);
      expect(firstKeys).toEqual([
        first.path,
        expect.stringMatching(new RegExp(`^${first.path}\\.large-[0-9a-f]{10}\\.webp$`)),
        expect.stringMatching(new RegExp(`^${first.path}\\.thumb-[0-9a-f]{10}\\.jpg$`)),
      ]);
      const stray = `${first.path}.thumb-0000000000.jpg`;
      await t.app.get(FileStorage).put(stray, Readable.from([Buffer.from('x')]));
      const swept = await t.app.get(OrphanSweeper).sweep({ graceMs: 0 });
      expect(swept.orphans).toContain(stray);
      expect(swept.orphans.filter((key) => firstKeys.includes(key))).toEqual([]);
      expect(await storedKeys(`product/${id}/`)).toEqual(firstKeys);

      // Replaced: the old file and its variants go, the new file gets its own.
      const second = (await upload(`/files/product/${id}/cover`, await image('webp', 500, 400), 'b.webp').expect(200))
        .body as FileBody;
      await madeCover(id);
      const secondKeys = await storedKeys(`product/${id}/`);
      expect(secondKeys).toHaveLength(3);
      expect(secondKeys.every((key) => key.startsWith(second.path))).toBe(true);

      await api().delete(`/files/${second.id}`).expect(204);
      expect(await storedKeys(`product/${id}/`)).toEqual([]);
    });

    it('removes the variants of every file when the entity is deleted', async () => {
      const id = await createProduct();
      await upload(`/files/product/${id}/cover`, await image('png', 300, 300), 'c.png').expect(201);
      await madeCover(id);
      expect(await storedKeys(`product/${id}/`)).toHaveLength(3);
      await api().delete(`/products/${id}`).expect(204);
      expect(await storedKeys(`product/${id}/`)).toEqual([]);
    });
  });
});
