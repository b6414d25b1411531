import { Readable } from 'node:stream';
import sharp from 'sharp';
import type { Transaction } from '../../database/unit-of-work.js';
import type { FileVariantsRepository } from '../images/variants/file-variants.repository.js';
import { FileVariants } from '../images/variants/file-variants.service.js';
import { VariantProduction } from '../images/variants/variant-production.js';
import type { VariantStates } from '../records/variant-state.js';
import type { FileUrls } from '../urls/file-urls.js';
import { FakeFileFieldRegistry, FakeFileStorage } from './file-fixtures.js';
import { cover } from './files-setup.js';
import { asReal, FakeFileRecordsRepository, FakeUnitOfWork } from './in-memory-repositories.js';

const THUMB = { width: 20, height: 20, fit: 'cover' } as const;

/**
 * The image variants over in-memory fakes: product `cover` declares a 20x20 `thumb`, `plain` no variants; `image()`
 * stores an 80x60 PNG (or the bytes given) in `cover`. URLs are `https://cdn.test/<id>/<variant>`.
 */
export async function variantsSetup(imageDecodeBytes = 1e9) {
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
    urlOf: (record, variant) => Promise.resolve(`https://cdn.test/${record.id}/${variant?.name}`),
  };
  const production = new VariantProduction(
    asReal(registry),
    asReal(fileRecords),
    variantRecords,
    storage,
    asReal(new FakeUnitOfWork()),
    { imageDecodeBytes },
  );
  const variants = new FileVariants(production, asReal(fileRecords), urls as FileUrls);
  const png = await sharp({ create: { width: 80, height: 60, channels: 3, background: '#123456' } })
    .png()
    .toBuffer();
  const image = async (bytes = png) => {
    const record = fileRecords.add(cover, 0, { originalName: 'a.png', mimeType: 'image/png', size: bytes.length });
    await storage.put(record.storageKey, Readable.from([bytes]));
    return record;
  };
  return { storage, fileRecords, production, variants, image };
}
