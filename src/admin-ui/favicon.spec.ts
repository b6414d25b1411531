import sharp from 'sharp';
import { FAVICON_PNG, FAVICON_SVG, icoOf } from './favicon.js';

const pixels = (input: Buffer) => sharp(input).resize(32, 32).removeAlpha().raw().toBuffer();

describe('favicon', () => {
  it('is the SVG drawn at 32×32', async () => {
    const [drawn, stored] = await Promise.all([pixels(Buffer.from(FAVICON_SVG)), pixels(FAVICON_PNG)]);
    expect(await sharp(FAVICON_PNG).metadata()).toMatchObject({ format: 'png', width: 32, height: 32 });
    // A palette PNG rounds colours a little; a different drawing differs by far more.
    const difference = drawn.reduce((sum, value, i) => sum + Math.abs(value - stored[i]), 0) / drawn.length;
    expect(difference).toBeLessThan(4);
  });

  it('wraps the PNG in an ICO file that points at it', () => {
    const ico = icoOf(FAVICON_PNG, 32);
    expect([ico.readUInt16LE(0), ico.readUInt16LE(2), ico.readUInt16LE(4)]).toEqual([0, 1, 1]);
    expect([ico[6], ico[7]]).toEqual([32, 32]);
    expect(ico.readUInt32LE(14)).toBe(FAVICON_PNG.length);
    expect(ico.subarray(ico.readUInt32LE(18)).equals(FAVICON_PNG)).toBe(true);
    expect(icoOf(FAVICON_PNG, 256)[6]).toBe(0);
  });
});
