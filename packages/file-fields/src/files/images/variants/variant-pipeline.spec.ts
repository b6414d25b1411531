import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { jest } from '@jest/globals';
import sharp from 'sharp';
import { FakeFileStorage } from '../../testing/file-fixtures.js';
import type { ImageVariantOptions } from '../options/image-options.js';
import { produceVariant, VariantInputError, variantTarget } from './variant-pipeline.js';

describe('the variant pipeline', () => {
  let dir: string;
  const original = { storageKey: 'product/1/5a1d', mimeType: 'image/png' };

  /** An image file of the size, in the format (and several frames for an animated GIF or WebP). */
  const imageFile = async (name: string, format: 'png' | 'jpeg' | 'webp' | 'gif', width: number, height: number) => {
    const frames = format === 'gif' ? 3 : 1;
    const raw = Buffer.alloc(width * height * frames * 3);
    // Frames that differ (a GIF encoder merges equal ones).
    for (let frame = 0; frame < frames; frame++) raw.fill(60 * (frame + 1), frame * width * height * 3);
    const bytes = await sharp(raw, { raw: { width, height: height * frames, channels: 3, pageHeight: height } })
      .toFormat(format)
      .toBuffer();
    const path = join(dir, name);
    await writeFile(path, bytes);
    return path;
  };
  const produce = async (
    path: string,
    options: ImageVariantOptions,
    mimeType = 'image/png',
    limits = { maxPixels: 1e8, maxDecodeBytes: 1e9 },
  ) => {
    const storage = new FakeFileStorage();
    const target = variantTarget({ ...original, mimeType }, 'v', options);
    const stored = await produceVariant(storage, target, path, limits);
    return { stored, storage, bytes: storage.objects.get(stored.key)! };
  };

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'variant-pipeline-'));
  });
  afterAll(async () => rm(dir, { recursive: true, force: true }));

  it.each(['png', 'jpeg', 'webp'] as const)(
    'makes a %s variant of the declared size, in its format',
    async (format) => {
      const path = await imageFile(`in.${format}`, format, 640, 480);
      const { stored, bytes } = await produce(path, { width: 100, height: 100, fit: 'cover' }, `image/${format}`);
      await expect(sharp(bytes).metadata()).resolves.toMatchObject({ width: 100, height: 100, format });
      expect(stored).toMatchObject({ width: 100, height: 100, size: bytes.length, mimeType: `image/${format}` });
      expect(stored.checksumSha256).toMatch(/^[0-9a-f]{64}$/);
    },
  );

  it('keeps proportions within the box (inside), converts to the declared format, and never enlarges', async () => {
    const path = await imageFile('wide.png', 'png', 800, 200);
    const { stored, bytes } = await produce(path, { width: 400, format: 'webp' });
    expect(stored).toMatchObject({ width: 400, height: 100, mimeType: 'image/webp' });
    await expect(sharp(bytes).metadata()).resolves.toMatchObject({ format: 'webp', width: 400, height: 100 });
    const small = await produce(path, { width: 2000, height: 2000 });
    expect(small.stored).toMatchObject({ width: 800, height: 200 });
  });

  it('keeps only the first frame of an animation unless the variant is animated', async () => {
    const path = await imageFile('anim.gif', 'gif', 60, 40);
    const still = await produce(path, { width: 30 }, 'image/gif');
    const stillMetadata = await sharp(still.bytes, { animated: true }).metadata();
    expect(stillMetadata.pages ?? 1).toBe(1);
    const moving = await produce(path, { width: 30, animated: true, format: 'webp' }, 'image/gif');
    await expect(sharp(moving.bytes, { animated: true }).metadata()).resolves.toMatchObject({
      pages: 3,
      format: 'webp',
    });
    expect(moving.stored).toMatchObject({ width: 30, height: 20 });
  });

  it('refuses an image over the pixel limit, or one that does not decode, as the input’s fault', async () => {
    const path = await imageFile('big.png', 'png', 300, 300);
    const limits = { maxPixels: 300 * 299, maxDecodeBytes: 1e9 };
    await expect(produce(path, { width: 10 }, 'image/png', limits)).rejects.toBeInstanceOf(VariantInputError);
    const broken = join(dir, 'broken.png');
    await writeFile(broken, (await sharp(path).png().toBuffer()).subarray(0, 200));
    await expect(produce(broken, { width: 10 })).rejects.toBeInstanceOf(VariantInputError);
  });

  it('throws a storage failure as it is, leaving nothing stored', async () => {
    const path = await imageFile('ok.png', 'png', 50, 50);
    const storage = new FakeFileStorage();
    const full = Object.assign(new Error('ENOSPC'), { code: 'ENOSPC' });
    storage.put = async (_key: string, body: Readable) => {
      body.destroy();
      return Promise.reject(full);
    };
    const target = variantTarget(original, 'v', { width: 10 });
    await expect(produceVariant(storage, target, path, { maxPixels: 1e6, maxDecodeBytes: 1e9 })).rejects.toBe(full);
    expect(storage.objects.size).toBe(0);
  });

  it('refuses, without decoding, an image whose decoding would take more memory than the budget', async () => {
    const path = await imageFile('interlaced.png', 'png', 400, 300);
    await writeFile(path, await sharp(path).png({ progressive: true }).toBuffer());
    const decode = jest.spyOn(sharp.prototype, 'toFile');
    // 400 × 300 pixels, 3 bytes each, held whole: 450,000 bytes with the decoder's own.
    const limits = { maxPixels: 1e8, maxDecodeBytes: 400_000 };
    const refused = produce(path, { width: 10 }, 'image/png', limits);
    await expect(refused).rejects.toThrow(/interlaced PNG, 400×300.* at most 1 MiB \(400000 bytes\)/);
    await expect(refused).rejects.toBeInstanceOf(VariantInputError);
    expect(decode).not.toHaveBeenCalled();
    decode.mockRestore();
    const sequential = await imageFile('sequential.png', 'png', 400, 300);
    await expect(produce(sequential, { width: 10 }, 'image/png', limits)).resolves.toMatchObject({
      stored: { width: 10 },
    });
  });

  // The temporary directory full (ENOSPC, through /dev/full where there is one) or unwritable: not the image's fault.
  it('throws a failure to write the temporary variant file as a storage fault, not as the image’s', async () => {
    const own = await mkdtemp(join(dir, 'full-'));
    const path = join(own, 'original');
    await writeFile(path, await sharp(await imageFile('fine.png', 'png', 50, 50)).toBuffer());
    const target = variantTarget(original, 'v', { width: 10 });
    const output = join(own, 'v.png');
    if (existsSync('/dev/full')) await symlink('/dev/full', output);
    else await mkdir(output);
    const limits = { maxPixels: 1e6, maxDecodeBytes: 1e9 };
    const failure = await produceVariant(new FakeFileStorage(), target, path, limits).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(Error);
    expect(failure).not.toBeInstanceOf(VariantInputError);
    expect((failure as Error).message).toMatch(/system error/);
    if (existsSync('/dev/full')) expect(failure).toMatchObject({ code: 'ENOSPC' });
  });

  it('stores a variant next to its original, under a key that changes with the declaration', () => {
    const thumb = variantTarget(original, 'thumb', { width: 200, height: 200, fit: 'cover' });
    expect(thumb.key).toMatch(/^product\/1\/5a1d\.thumb-[0-9a-f]{10}\.png$/);
    expect(variantTarget(original, 'thumb', { width: 200, height: 200, fit: 'cover' }).key).toBe(thumb.key);
    expect(variantTarget(original, 'thumb', { width: 201, height: 200, fit: 'cover' }).key).not.toBe(thumb.key);
    expect(variantTarget({ ...original, mimeType: 'image/jpeg' }, 'thumb', thumb.options).key).toMatch(/\.jpg$/);
    expect(variantTarget({ ...original, mimeType: 'image/tiff' }, 'thumb', thumb.options).format).toBe('png');
    expect(variantTarget(original, 'large', { width: 9, format: 'webp' }).key).toMatch(/\.large-[0-9a-f]{10}\.webp$/);
  });
});
