import { jest } from '@jest/globals';
import { Logger } from '@nestjs/common';
import { Readable } from 'node:stream';
import sharp from 'sharp';
import { cover } from '../../testing/files-setup.js';
import { variantsSetup as setup } from '../../testing/variants-setup.js';

describe('VariantProduction', () => {
  afterEach(() => jest.restoreAllMocks());

  it('declares the variants of an image in a field with variants, and none otherwise', async () => {
    const { production, image, fileRecords } = await setup();
    expect(production.targetsOf(await image()).map((target) => target.name)).toEqual(['thumb']);
    expect(production.targetsOf(fileRecords.add(cover, 1, { mimeType: 'application/pdf' }))).toEqual([]);
    expect(production.targetsOf(fileRecords.add({ ...cover, field: 'plain' }, 0))).toEqual([]);
  });

  it('drops a variant made for a file replaced meanwhile, and records nothing', async () => {
    const { production, image, storage, fileRecords } = await setup();
    const record = await image();
    const get = storage.get.bind(storage);
    storage.get = async (key, range) => {
      const bytes = await get(key, range);
      fileRecords.byId(record.id).storageKey = 'product/1/replaced';
      return bytes;
    };
    production.later([record]);
    await production.settled();
    expect(fileRecords.byId(record.id).variants).toBeNull();
    expect([...storage.objects.keys()]).toEqual([record.storageKey]);
    expect(storage.deleted).toEqual([expect.stringMatching(/\.thumb-/)]);
  });

  it('records an image over the decode budget as failed without decoding it; never tried again', async () => {
    const { production, image, storage, fileRecords } = await setup(100_000);
    const interlaced = await sharp({ create: { width: 200, height: 200, channels: 3, background: '#654321' } })
      .png({ progressive: true })
      .toBuffer();
    const record = await image(interlaced);
    const decode = jest.spyOn(sharp.prototype, 'toFile');
    jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    await production.now(record);
    expect(decode).not.toHaveBeenCalled();
    expect(fileRecords.byId(record.id).variants?.thumb).toEqual({ key: expect.any(String), failed: true });
    storage.get = () => Promise.reject(new Error('not read again'));
    production.later([fileRecords.byId(record.id)]);
    await production.settled();
  });

  it('leaves a variant whose temporary file could not be written unrecorded (507), and makes it the next time', async () => {
    const { production, image, fileRecords } = await setup();
    const record = await image();
    const full = new Error('/tmp/file-image-x/thumb.png: write error\nsystem error: No space left on device');
    jest.spyOn(sharp.prototype, 'toFile').mockRejectedValueOnce(full);
    jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    await expect(production.now(record)).rejects.toMatchObject({ status: 507, code: 'storage-full' });
    expect(fileRecords.byId(record.id).variants).toBeNull();
    await production.now(record);
    expect(fileRecords.byId(record.id).variants?.thumb).toMatchObject({ width: 20, height: 20 });
  });

  it('makes again a variant made for an earlier declaration, and removes the earlier one', async () => {
    const { production, image, storage, fileRecords } = await setup();
    const record = await image();
    const old = { key: `${record.storageKey}.thumb-0000000000.png`, width: 9, height: 9, size: 1 };
    fileRecords.byId(record.id).variants = { thumb: { ...old, mimeType: 'image/png', checksumSha256: '0'.repeat(64) } };
    await storage.put(old.key, Readable.from([Buffer.from('old')]));
    production.later([fileRecords.byId(record.id)]);
    await production.settled();
    expect(fileRecords.byId(record.id).variants?.thumb).toMatchObject({ width: 20, height: 20 });
    expect(storage.objects.has(old.key)).toBe(false);
  });

  it('answers 503 for a variant whose original is missing from the storage', async () => {
    const { production, image, storage } = await setup();
    const record = await image();
    await storage.delete(record.storageKey);
    const logged = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    await expect(production.now(record)).rejects.toMatchObject({ status: 503 });
    expect(logged).toHaveBeenCalledWith(expect.objectContaining({ fileId: record.id }), expect.any(String));
  });

  it('lets the variants under way finish at shutdown, and starts no new ones', async () => {
    const { production, image, fileRecords, storage } = await setup();
    const first = await image();
    const get = storage.get.bind(storage);
    const reading = new Promise<void>((started) => {
      storage.get = (key, range) => {
        started();
        return get(key, range);
      };
    });
    production.later([first]);
    await reading;
    await production.beforeApplicationShutdown();
    expect(fileRecords.byId(first.id).variants?.thumb).toMatchObject({ width: 20 });
    const second = fileRecords.add({ ...cover, attachmentId: 2 }, 0, { mimeType: 'image/png' });
    await storage.put(second.storageKey, Readable.from([storage.objects.get(first.storageKey)!]));
    production.later([second]);
    await production.settled();
    expect(fileRecords.byId(second.id).variants).toBeNull();
  });
});
