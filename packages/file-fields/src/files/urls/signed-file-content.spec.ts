import { jest } from '@jest/globals';
import { FakeClock } from '../../common/testing/fakes.js';
import { resolveFileFieldsOptions } from '../fields/file-fields.options.js';
import type { FileRecord } from '../records/file-record.entity.js';
import { FilesError } from '../../errors/files.errors.js';
import { FakeFileStorage } from '../testing/file-fixtures.js';
import { asReal, FakeFileRecordsRepository } from '../testing/in-memory-repositories.js';
import { cover } from '../testing/files-setup.js';
import { FileUrls } from './file-urls.js';
import { FileVariantSource, NoFileVariants, type StoredVariant } from './file-variant-source.js';
import { SignedFileContent, type SignedUrlQuery } from './signed-file-content.js';

const THUMB: StoredVariant = {
  storageKey: 'product/1/stored-1-thumb',
  mimeType: 'image/webp',
  size: 9,
  checksumSha256: 'b'.repeat(64),
};

/** Product 1's cover has a `thumb`. */
class ThumbVariants extends FileVariantSource {
  find(_record: FileRecord, name: string): Promise<StoredVariant | undefined> {
    return Promise.resolve(name === 'thumb' ? THUMB : undefined);
  }
}

function setup(variants: FileVariantSource = new NoFileVariants()) {
  const clock = new FakeClock(Date.UTC(2026, 10, 23, 10, 20));
  const storage = new FakeFileStorage();
  const records = new FakeFileRecordsRepository();
  const urls = new FileUrls(
    resolveFileFieldsOptions({ storage, publicUrl: 'https://api.example.com' }),
    storage,
    clock,
  );
  const signed = new SignedFileContent(asReal(records), variants, urls, clock);
  const file = records.add(cover, 0);
  /** The query of a URL FileUrls handed out. */
  const queryOf = (url: string): SignedUrlQuery => Object.fromEntries(new URL(url).searchParams);
  return { clock, records, urls, signed, file, queryOf };
}

async function refusal(promise: Promise<unknown>): Promise<{ status: number; code: string }> {
  const error = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(FilesError);
  const { status, code } = error as FilesError;
  return { status, code };
}

const INVALID = { status: 403, code: 'file-url-invalid' };

describe('SignedFileContent', () => {
  it('serves the record a URL was issued for, saying how long the URL still lives', async () => {
    const { urls, signed, file, queryOf } = setup();
    const resolved = await signed.resolve(file.id, queryOf(await urls.urlOf(file)));
    expect(resolved.record).toMatchObject({ id: file.id, storageKey: file.storageKey });
    // Issued at 10:20 in the 10:00 window: valid until 12:00.
    expect(resolved.secondsLeft).toBe(100 * 60);
  });

  it('refuses an expired URL without reading anything', async () => {
    const { clock, records, urls, signed, file, queryOf } = setup();
    const query = queryOf(await urls.urlOf(file));
    clock.advance(100 * 60_000 - 1000);
    await expect(signed.resolve(file.id, query)).resolves.toMatchObject({ secondsLeft: 1 });
    clock.advance(1000);
    const findById = jest.spyOn(records, 'findById');
    expect(await refusal(signed.resolve(file.id, query))).toEqual({ status: 403, code: 'file-url-expired' });
    expect(findById).not.toHaveBeenCalled();
  });

  it('refuses an altered URL: another id, another expiry, another signature, a variant added', async () => {
    const { records, urls, signed, file, queryOf } = setup(new ThumbVariants());
    const query = queryOf(await urls.urlOf(file));
    const other = records.add({ ...cover, attachmentId: 2 }, 0);
    const signature = String(query.signature);
    const altered = `${signature.slice(0, 5)}${signature[5] === 'a' ? 'b' : 'a'}${signature.slice(6)}`;
    expect(await refusal(signed.resolve(other.id, query))).toEqual(INVALID);
    expect(await refusal(signed.resolve(file.id, { ...query, expires: String(Number(query.expires) + 3600) }))).toEqual(
      INVALID,
    );
    expect(await refusal(signed.resolve(file.id, { ...query, signature: altered }))).toEqual(INVALID);
    expect(await refusal(signed.resolve(file.id, { ...query, variant: 'thumb' }))).toEqual(INVALID);
  });

  it('refuses the URL of bytes the file no longer has, or of a file that is gone, like an altered one', async () => {
    const { records, urls, signed, file, queryOf } = setup();
    const query = queryOf(await urls.urlOf(file));
    records.byId(file.id).storageKey = 'product/1/replaced';
    expect(await refusal(signed.resolve(file.id, query))).toEqual(INVALID);
    records.rows.splice(0);
    expect(await refusal(signed.resolve(file.id, query))).toEqual(INVALID);
  });

  it.each<[string, SignedUrlQuery]>([
    ['nothing', {}],
    ['no signature', { expires: '1795440000' }],
    ['an expiry that is not a number', { expires: '1e12', signature: 'x'.repeat(43) }],
    ['repeated parameters', { expires: ['1795440000', '1795440000'], signature: 'x'.repeat(43) }],
    ['a malformed variant name', { expires: '1795440000', signature: 'x'.repeat(43), variant: '../thumb' }],
  ])('refuses a URL with %s', async (_case, query) => {
    const { signed, file } = setup();
    expect(await refusal(signed.resolve(file.id, query))).toEqual(INVALID);
  });

  it("serves a variant's bytes under the record's name, and refuses variants that do not exist", async () => {
    const { urls, signed, file, queryOf } = setup(new ThumbVariants());
    const thumbUrl = await urls.urlOf(file, { name: 'thumb', storageKey: THUMB.storageKey });
    const { record } = await signed.resolve(file.id, queryOf(thumbUrl));
    expect(record).toMatchObject({ id: file.id, originalName: file.originalName, ...THUMB });
    const large = await urls.urlOf(file, { name: 'large', storageKey: 'product/1/stored-1-large' });
    expect(await refusal(signed.resolve(file.id, queryOf(large)))).toEqual(INVALID);
    const stale = await urls.urlOf(file, { name: 'thumb', storageKey: 'product/1/stored-1-old-thumb' });
    expect(await refusal(signed.resolve(file.id, queryOf(stale)))).toEqual(INVALID);
  });
});
