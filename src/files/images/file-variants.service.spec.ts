import { jest } from '@jest/globals';
import { Logger } from '@nestjs/common';
import { Readable } from 'node:stream';
import sharp from 'sharp';
import type { Transaction } from '../../database/unit-of-work.js';
import type { FileUrls } from '../urls/file-urls.js';
import { FakeFileFieldRegistry, FakeFileStorage } from '../testing/file-fixtures.js';
import { cover } from '../testing/files-setup.js';
import { asReal, FakeFileRecordsRepository, FakeUnitOfWork } from '../testing/in-memory-repositories.js';
import { FileVariants } from './file-variants.service.js';
import type { FileVariantsRepository } from './file-variants.repository.js';
import type { VariantStates } from './variant-state.js';

const THUMB = { width: 20, height: 20, fit: 'cover' } as const;

describe('FileVariants', () => {
  afterEach(() => jest.restoreAllMocks());

  const setup = async (imageDecodeBytes = 1e9) => {
    const storage = new FakeFileStorage();
    const fileRecords = new FakeFileRecordsRepository();
    const registry = new FakeFileFieldRegistry({
      product: [
        { name: 'cover', multi: false, variants: { thumb: THUMB } },
        { name: 'plain', multi: false },
      ],
    });
    const variantRecords = {
      lockedRecord: (id: number, _tx: Transaction) => fileRecords.findById(id),
      setVariants: (id: number, variants: VariantStates) => {
        fileRecords.byId(id).variants = structuredClone(variants);
        return Promise.resolve();
      },
    } as unknown as FileVariantsRepository;
    const urls: Pick<FileUrls, 'urlOf'> = {
      urlOf: (record, variant) => `https://cdn.test/${record.id}/${variant?.name}`,
    };
    const variants = new FileVariants(
      asReal(registry),
      asReal(fileRecords),
      variantRecords,
      storage,
      asReal(new FakeUnitOfWork()),
      urls as FileUrls,
      { imageDecodeBytes },
    );
    const png = await sharp({ create: { width: 80, height: 60, channels: 3, background: '#123456' } })
      .png()
      .toBuffer();
    const image = async (bytes = png) => {
      const record = fileRecords.add(cover, 0, { originalName: 'a.png', mimeType: 'image/png', size: bytes.length });
      await storage.put(record.storageKey, Readable.from([bytes]));
      return record;
    };
    return { storage, fileRecords, variants, image };
  };

  it('lists a missing variant as null and makes it in the background; then lists it with its URL', async () => {
    const { variants, image, fileRecords, storage } = await setup();
    const record = await image();
    expect(variants.describe(record)).toEqual({ thumb: null });
    await variants.settled();
    const made = fileRecords.byId(record.id);
    const thumbKey = made.variants!.thumb.key;
    expect(thumbKey).toMatch(new RegExp(`^${record.storageKey}\\.thumb-[0-9a-f]{10}\\.png$`));
    await expect(sharp(storage.objects.get(thumbKey)).metadata()).resolves.toMatchObject({ width: 20, height: 20 });
    expect(variants.toDto(made).variants).toEqual({
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
    expect(variants.describe(pdf)).toEqual({});
    const plain = fileRecords.add({ ...cover, field: 'plain' }, 0);
    expect(variants.describe(plain)).toBeUndefined();
    expect(variants.toDto(plain)).not.toHaveProperty('variants');
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

  it('drops a variant made for a file replaced meanwhile, and records nothing', async () => {
    const { variants, image, storage, fileRecords } = await setup();
    const record = await image();
    const get = storage.get.bind(storage);
    storage.get = async (key, range) => {
      const bytes = await get(key, range);
      fileRecords.byId(record.id).storageKey = 'product/1/replaced';
      return bytes;
    };
    variants.produceLater([record]);
    await variants.settled();
    expect(fileRecords.byId(record.id).variants).toBeNull();
    expect([...storage.objects.keys()]).toEqual([record.storageKey]);
    expect(storage.deleted).toEqual([expect.stringMatching(/\.thumb-/)]);
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
    expect(variants.describe(failed)).toEqual({});
    storage.get = () => Promise.reject(new Error('not read again'));
    await expect(variants.variantOf(failed, 'thumb')).rejects.toMatchObject({ code: 'variant-not-found' });
    expect([...storage.objects.keys()]).toEqual([record.storageKey]);
  });

  it('records an image over the decode budget as failed without decoding it; never tried again', async () => {
    const { variants, image, storage, fileRecords } = await setup(100_000);
    const interlaced = await sharp({ create: { width: 200, height: 200, channels: 3, background: '#654321' } })
      .png({ progressive: true })
      .toBuffer();
    const record = await image(interlaced);
    const decode = jest.spyOn(sharp.prototype, 'toFile');
    jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    await expect(variants.variantOf(record, 'thumb')).rejects.toMatchObject({ code: 'variant-not-found' });
    expect(decode).not.toHaveBeenCalled();
    expect(fileRecords.byId(record.id).variants?.thumb).toEqual({ key: expect.any(String), failed: true });
    storage.get = () => Promise.reject(new Error('not read again'));
    variants.produceLater([fileRecords.byId(record.id)]);
    await variants.settled();
  });

  it('leaves a variant whose temporary file could not be written unrecorded (507), and makes it the next time', async () => {
    const { variants, image, fileRecords } = await setup();
    const record = await image();
    const full = new Error('/tmp/file-image-x/thumb.png: write error\nsystem error: No space left on device');
    jest.spyOn(sharp.prototype, 'toFile').mockRejectedValueOnce(full);
    jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    await expect(variants.variantOf(record, 'thumb')).rejects.toMatchObject({ status: 507, code: 'storage-full' });
    expect(fileRecords.byId(record.id).variants).toBeNull();
    await expect(variants.variantOf(record, 'thumb')).resolves.toMatchObject({ width: 20, height: 20 });
  });

  it('makes again a variant made for an earlier declaration, and removes the earlier one', async () => {
    const { variants, image, storage, fileRecords } = await setup();
    const record = await image();
    const old = { key: `${record.storageKey}.thumb-0000000000.png`, width: 9, height: 9, size: 1 };
    fileRecords.byId(record.id).variants = { thumb: { ...old, mimeType: 'image/png', checksumSha256: '0'.repeat(64) } };
    await storage.put(old.key, Readable.from([Buffer.from('old')]));
    expect(variants.describe(fileRecords.byId(record.id))).toEqual({ thumb: null });
    await variants.settled();
    expect(fileRecords.byId(record.id).variants?.thumb).toMatchObject({ width: 20, height: 20 });
    expect(storage.objects.has(old.key)).toBe(false);
  });

  it('answers 503 for a variant whose original is missing from the storage', async () => {
    const { variants, image, storage } = await setup();
    const record = await image();
    await storage.delete(record.storageKey);
    const logged = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    await expect(variants.variantOf(record, 'thumb')).rejects.toMatchObject({ status: 503 });
    expect(logged).toHaveBeenCalledWith(expect.objectContaining({ fileId: record.id }), expect.any(String));
  });
});
