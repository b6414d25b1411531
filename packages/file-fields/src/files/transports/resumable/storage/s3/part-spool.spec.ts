import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PartSpool, type SpooledPart } from './part-spool.js';

describe('PartSpool', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'part-spool-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('cuts the bytes into files of the part size, whatever the chunks, and keeps the rest for close()', async () => {
    const bytes = randomBytes(3 * 1000 + 17);
    const parts: Buffer[] = [];
    const spool = new PartSpool(dir, 1000, async (part: SpooledPart) => {
      expect(part.size).toBe(1000);
      parts.push(await readFile(part.path));
      await rm(part.path);
    });
    for (let at = 0; at < bytes.length; at += 333) await spool.write(bytes.subarray(at, at + 333));
    const rest = await spool.close();
    expect(rest?.size).toBe(17);
    expect(Buffer.concat([...parts, await readFile(rest!.path)]).equals(bytes)).toBe(true);
    expect(parts).toHaveLength(3);
  });

  it('hands a chunk that spans several parts over in order, and leaves no file when nothing is left', async () => {
    const bytes = randomBytes(2500);
    const sizes: number[] = [];
    const spool = new PartSpool(dir, 500, async (part) => {
      sizes.push(part.size);
      await rm(part.path);
    });
    await spool.write(bytes);
    expect(await spool.close()).toBeUndefined();
    expect(sizes).toEqual([500, 500, 500, 500, 500]);
    expect(await readdir(dir)).toEqual([]);
  });
});
