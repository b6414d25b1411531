import { Readable } from 'node:stream';
import sharp from 'sharp';
import { FilesError } from '../../../errors/files.errors.js';
import { FakeFileStorage } from '../../testing/file-fixtures.js';
import { ImageProbe, type ProbedPart } from './image-probe.js';

describe('ImageProbe', () => {
  const noise = (width: number, height: number) =>
    sharp(Buffer.from(Array.from({ length: width * height * 3 }, (_, i) => (i * 7919) % 251)), {
      raw: { width, height, channels: 3 },
    });
  /** A part as the upload stored it, keeping `headBytes` of it as the upload would. */
  const stored = async (bytes: Buffer, mimeType: string, headBytes = 256 * 1024) => {
    const storage = new FakeFileStorage();
    await storage.put('product/1/k', Readable.from([bytes]));
    const part: ProbedPart = { key: 'product/1/k', head: bytes.subarray(0, headBytes), size: bytes.length, mimeType };
    return { probe: new ImageProbe(storage), part, storage };
  };
  const rules = { maxPixels: 1_000_000, countFrames: false };

  it('reads the size of PNG, JPEG, WebP and GIF images from their first bytes', async () => {
    for (const format of ['png', 'jpeg', 'webp', 'gif'] as const) {
      const { probe, part, storage } = await stored(
        await noise(120, 80).toFormat(format).toBuffer(),
        `image/${format}`,
      );
      storage.get = () => Promise.reject(new Error('read back'));
      await expect(probe.inspect(part, rules)).resolves.toEqual({ width: 120, height: 80 });
    }
  });

  it('reads the stored object back when the header lies beyond the first bytes (a large WebP)', async () => {
    const webp = await noise(600, 400).webp({ lossless: true }).toBuffer();
    const { probe, part } = await stored(webp, 'image/webp', 4096);
    await expect(probe.inspect(part)).resolves.toEqual({ width: 600, height: 400 });
  });

  it('reports the size as shown, after the EXIF orientation', async () => {
    const jpeg = await noise(120, 80).jpeg().withMetadata({ orientation: 6 }).toBuffer();
    const { probe, part } = await stored(jpeg, 'image/jpeg');
    await expect(probe.inspect(part)).resolves.toEqual({ width: 80, height: 120 });
  });

  it('refuses more pixels than the field allows with 413, counting frames when a variant is animated', async () => {
    const { probe, part } = await stored(await noise(1001, 1000).png().toBuffer(), 'image/png');
    await expect(probe.inspect(part, rules)).rejects.toMatchObject({ status: 413, code: 'image-too-large' });
    // Three frames of 600 × 600: each within the limit, all three beyond it.
    const raw = Buffer.alloc(600 * 600 * 3 * 3);
    for (let frame = 0; frame < 3; frame++) raw.fill(80 * (frame + 1), frame * 600 * 600 * 3);
    const gif = await sharp(raw, { raw: { width: 600, height: 1800, channels: 3, pageHeight: 600 } })
      .gif()
      .toBuffer();
    const animated = await stored(gif, 'image/gif');
    await expect(animated.probe.inspect(animated.part, rules)).resolves.toEqual({ width: 600, height: 600 });
    await expect(animated.probe.inspect(animated.part, { ...rules, countFrames: true })).rejects.toMatchObject({
      code: 'image-too-large',
    });
  });

  it('refuses with 413 an image whose decoding would take more than the budget: interlaced, not sequential', async () => {
    const budget = { ...rules, maxDecodeBytes: 1_000_000 };
    // 600 × 600 RGB held whole: 1.35 MB; read in strips: 180 kB.
    const interlaced = await stored(await noise(600, 600).png({ progressive: true }).toBuffer(), 'image/png');
    const refused = interlaced.probe.inspect(interlaced.part, budget);
    await expect(refused).rejects.toMatchObject({ status: 413, code: 'image-too-large' });
    await expect(refused).rejects.toThrow(/\(interlaced PNG, 600×600\) .* at most 1 MiB \(1000000 bytes\)/);
    await expect(interlaced.probe.inspect(interlaced.part, rules)).resolves.toEqual({ width: 600, height: 600 });
    const sequential = await stored(await noise(600, 600).png().toBuffer(), 'image/png');
    await expect(sequential.probe.inspect(sequential.part, budget)).resolves.toEqual({ width: 600, height: 600 });
  });

  it('refuses an image it cannot read with 415 where the field demands images, and records no size elsewhere', async () => {
    const broken = await stored(Buffer.concat([Buffer.from('ffd8ffe0', 'hex'), Buffer.alloc(100, 7)]), 'image/jpeg');
    await expect(broken.probe.inspect(broken.part, rules)).rejects.toBeInstanceOf(FilesError);
    await expect(broken.probe.inspect(broken.part, rules)).rejects.toMatchObject({ code: 'image-not-decodable' });
    await expect(broken.probe.inspect(broken.part)).resolves.toBeNull();
    const bmp = await stored(Buffer.from('BM0000'), 'image/bmp');
    await expect(bmp.probe.inspect(bmp.part, rules)).rejects.toMatchObject({ status: 415 });
  });

  it('leaves other files alone, in any field', async () => {
    const { probe, part } = await stored(Buffer.from('%PDF-1.7\n'), 'application/pdf');
    await expect(probe.inspect(part, rules)).resolves.toBeNull();
    await expect(probe.inspect(part)).resolves.toBeNull();
  });
});
