import { jest } from '@jest/globals';
import { Logger } from '@nestjs/common';
import sharp from 'sharp';
import { cover } from '../../testing/files-setup.js';
import { variantsSetup as setup } from '../../testing/variants-setup.js';

describe('FileVariants', () => {
  afterEach(() => jest.restoreAllMocks());

  it('lists a missing variant as null and makes it in the background; then lists it with its URL', async () => {
    const { variants, image, fileRecords, storage } = await setup();
    const record = await image();
    expect(await variants.describe(record)).toEqual({ thumb: null });
    await variants.settled();
    const made = fileRecords.byId(record.id);
    const thumbKey = made.variants!.thumb.key;
    expect(thumbKey).toMatch(new RegExp(`^${record.storageKey}\\.thumb-[0-9a-f]{10}\\.png$`));
    await expect(sharp(storage.objects.get(thumbKey)).metadata()).resolves.toMatchObject({ width: 20, height: 20 });
    expect((await variants.toDto(made)).variants).toEqual({
      thumb: {
        url: `https://cdn.test/${record.id}/thumb`,
        width: 20,
        height: 20,
        size: expect.any(Number),
        mime_type: 'image/png',
      },
    });
  });

  it('lists no variants of a file that is no image, and none at all in a field without variants', async () => {
    const { variants, fileRecords } = await setup();
    const pdf = fileRecords.add(cover, 0, { mimeType: 'application/pdf' });
    expect(await variants.describe(pdf)).toEqual({});
    const plain = fileRecords.add({ ...cover, field: 'plain' }, 0);
    expect(await variants.describe(plain)).toBeUndefined();
    expect(await variants.toDto(plain)).not.toHaveProperty('variants');
  });

  it('makes a variant once, whoever asks for it at the same time', async () => {
    const { variants, image, storage } = await setup();
    const record = await image();
    const reads: string[] = [];
    const get = storage.get.bind(storage);
    storage.get = (key, range) => {
      reads.push(key);
      return get(key, range);
    };
    variants.produceLater([record]);
    const [one, two] = await Promise.all([variants.variantOf(record, 'thumb'), variants.variantOf(record, 'thumb')]);
    expect(reads).toEqual([record.storageKey]);
    expect(one).toMatchObject({ id: record.id, mimeType: 'image/png', originalName: 'a-thumb.png', width: 20 });
    expect(two.storageKey).toBe(one.storageKey);
  });

  it('finds a current variant by its storage key, for routes that address variants so', async () => {
    const { variants, image, fileRecords } = await setup();
    const record = await image();
    const made = await variants.variantOf(record, 'thumb');
    const current = fileRecords.byId(record.id);
    expect(variants.storedUnder(current, made.storageKey)).toEqual(made);
    expect(variants.storedUnder(current, `${record.storageKey}.thumb-0000000000.png`)).toBeUndefined();
    expect(variants.storedUnder(current, record.storageKey)).toBeUndefined();
  });

  it('answers 404 for a variant the field does not declare', async () => {
    const { variants, image } = await setup();
    await expect(variants.variantOf(await image(), 'large')).rejects.toMatchObject({ code: 'variant-not-found' });
  });

  it('records an image that does not decode as failed: left out of the list, 404, never tried again', async () => {
    const { variants, image, storage, fileRecords } = await setup();
    const record = await image(Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'));
    const warned = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    await expect(variants.variantOf(record, 'thumb')).rejects.toMatchObject({ code: 'variant-not-found' });
    expect(warned).toHaveBeenCalledWith(
      expect.objectContaining({ variant: 'thumb' }),
      'An image variant cannot be made',
    );
    const failed = fileRecords.byId(record.id);
    expect(failed.variants?.thumb).toEqual({ key: expect.stringMatching(/\.thumb-/), failed: true });
    expect(await variants.describe(failed)).toEqual({});
    storage.get = () => Promise.reject(new Error('not read again'));
    await expect(variants.variantOf(failed, 'thumb')).rejects.toMatchObject({ code: 'variant-not-found' });
    expect([...storage.objects.keys()]).toEqual([record.storageKey]);
  });
});
