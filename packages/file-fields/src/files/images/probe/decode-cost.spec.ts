import {
  decodeBytes,
  DEFAULT_IMAGE_DECODE_BYTES,
  describeRaster,
  overBudget,
  type RasterHeader,
} from './decode-cost.js';
import { DEFAULT_MAX_PIXELS } from '../options/image-options.js';

const MiB = 1024 * 1024;
const header = (fields: Partial<RasterHeader>): RasterHeader => ({
  format: 'png',
  width: 1000,
  height: 1000,
  frames: 1,
  channels: 3,
  depth: 'uchar',
  progressive: false,
  ...fields,
});

describe('the memory an image takes to decode', () => {
  it('counts the whole raster of the formats held whole: the AVIF and PNG bombs of issue 36', () => {
    const avif = header({ format: 'heif', width: 12_000, height: 12_000 });
    expect(decodeBytes(avif)).toBe(12_000 * 12_000 * 22);
    expect(decodeBytes({ ...avif, depth: 'ushort' })).toBe(12_000 * 12_000 * 32);
    const png = header({ width: 16_000, height: 16_000, depth: 'ushort', progressive: true });
    expect(decodeBytes(png)).toBe(16_000 * 16_000 * 3 * 2 * 1.25);
    expect(decodeBytes({ ...png, channels: 4, depth: 'uchar' })).toBe(16_000 * 16_000 * 4 * 1.25);
  });

  it('counts the coefficients of a progressive JPEG at its chroma subsampling', () => {
    const jpeg = header({ format: 'jpeg', progressive: true });
    expect(decodeBytes({ ...jpeg, chromaSubsampling: '4:2:0' })).toBe(1e6 * (2 * 1.5 + 1));
    expect(decodeBytes({ ...jpeg, chromaSubsampling: '4:2:2' })).toBe(1e6 * (2 * 2 + 1));
    expect(decodeBytes({ ...jpeg, chromaSubsampling: '4:4:4' })).toBe(1e6 * (2 * 3 + 1));
    expect(decodeBytes({ ...jpeg, channels: 1 })).toBe(1e6 * 3);
    expect(decodeBytes({ ...jpeg, channels: 4, chromaSubsampling: '4:4:4:4' })).toBe(1e6 * 9);
  });

  it('counts rows only for formats read in strips, whatever their size', () => {
    for (const format of ['jpeg', 'png', 'webp', 'tiff']) {
      expect(decodeBytes(header({ format, width: 10_000, height: 10_000 }))).toBe(50_000_000);
    }
  });

  it('counts every frame only when every frame is decoded', () => {
    const gif = header({ format: 'gif', frames: 10 });
    expect(decodeBytes(gif)).toBe(7e6);
    expect(decodeBytes(gif, true)).toBe(7e7);
    const webp = header({ format: 'webp', frames: 10 });
    expect(decodeBytes(webp)).toBe(5e5);
    expect(decodeBytes(webp, true)).toBe(6e7);
    expect(decodeBytes({ ...webp, frames: 1 }, true)).toBe(5e5);
  });

  it('lets two images decode at once by default well within 1 GiB, and any image read in strips up to the pixel limit', () => {
    expect(2 * DEFAULT_IMAGE_DECODE_BYTES).toBeLessThanOrEqual(512 * MiB);
    const side = Math.floor(Math.sqrt(DEFAULT_MAX_PIXELS));
    expect(overBudget(header({ width: side, height: side }), DEFAULT_IMAGE_DECODE_BYTES)).toBeUndefined();
    // A 12 Mpx phone picture as AVIF still fits.
    expect(
      overBudget(header({ format: 'heif', width: 4032, height: 3024 }), DEFAULT_IMAGE_DECODE_BYTES),
    ).toBeUndefined();
  });

  it('says why an image is refused, naming its cost and the limit', () => {
    const avif = header({ format: 'heif', width: 5000, height: 4000 });
    expect(overBudget(avif, DEFAULT_IMAGE_DECODE_BYTES)).toBe(
      'Decoding this image (AVIF, 5000×4000) would take about 420 MiB of memory; images are decoded in at most ' +
        '256 MiB (268435456 bytes).',
    );
    expect(describeRaster(header({ progressive: true, width: 8, height: 9 }))).toBe('interlaced PNG, 8×9');
    expect(describeRaster(header({ format: 'jpeg', progressive: true }))).toBe('progressive JPEG, 1000×1000');
    expect(describeRaster(header({ format: 'gif', frames: 3 }), true)).toBe('GIF, 1000×1000×3 frames');
  });
});
