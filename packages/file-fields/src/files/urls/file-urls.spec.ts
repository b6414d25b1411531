import { randomBytes } from 'node:crypto';
import { FakeClock } from '../../common/testing/fakes.js';
import { resolveFileFieldsOptions, type FileFieldsOptions } from '../fields/file-fields.options.js';
import type { DirectUrlResponse, DirectUrlSigner } from '../../storage/file-storage.js';
import { FakeFileStorage } from '../testing/file-fixtures.js';
import { FileUrls } from './file-urls.js';

const HOUR_MS = 3_600_000;
/** 2026-11-23T10:20:00Z: twenty minutes into an hour. */
const NOW = Date.UTC(2026, 10, 23, 10, 20);
const NEXT_HOUR_PLUS_TTL = Date.UTC(2026, 10, 23, 12) / 1000;

/** Records what it was asked to sign, as an S3 storage's signer would be; fails while `failing` is set. */
class RecordingSigner implements DirectUrlSigner {
  readonly calls: Array<{ key: string; signedAt: number; expiresIn: number; response: DirectUrlResponse }> = [];
  failing = false;
  sign(key: string, signedAt: number, expiresIn: number, response: DirectUrlResponse): Promise<string> {
    this.calls.push({ key, signedAt, expiresIn, response });
    if (this.failing) return Promise.reject(new Error('no credentials'));
    return Promise.resolve(`https://bucket.example/${key}?at=${signedAt}&for=${expiresIn}`);
  }
}

class SigningStorage extends FakeFileStorage {
  readonly signer = new RecordingSigner();
  override directUrls(): Promise<DirectUrlSigner> {
    return Promise.resolve(this.signer);
  }
}

function fileUrls(options: Partial<FileFieldsOptions> = {}, storage = new FakeFileStorage()) {
  const clock = new FakeClock(NOW);
  const resolved = resolveFileFieldsOptions({ storage, publicUrl: 'https://api.example.com/', ...options });
  return { urls: new FileUrls(resolved, storage, clock), clock };
}

const record = { id: 7, storageKey: 'product/1/2f1c9a7e', mimeType: 'image/png', originalName: 'cover.png' };

describe('FileUrls', () => {
  it('gives an absolute URL of the signed route that expires a TTL after the current hour', async () => {
    const { urls } = fileUrls();
    const url = new URL(await urls.urlOf(record));
    expect(`${url.origin}${url.pathname}`).toBe('https://api.example.com/files/7/signed');
    expect([...url.searchParams.keys()]).toEqual(['expires', 'signature']);
    expect(Number(url.searchParams.get('expires'))).toBe(NEXT_HOUR_PLUS_TTL);
    expect(urls.verify({ ...record, expires: NEXT_HOUR_PLUS_TTL }, url.searchParams.get('signature')!)).toBe(true);
  });

  it('gives the same URL for the whole window, a new one after it', async () => {
    const { urls, clock } = fileUrls();
    const first = await urls.urlOf(record);
    clock.advance(39 * 60_000);
    expect(await urls.urlOf({ ...record })).toBe(first);
    clock.advance(60_000);
    const next = await urls.urlOf(record);
    expect(next).not.toBe(first);
    expect(new URL(next).searchParams.get('expires')).toBe(String(NEXT_HOUR_PLUS_TTL + 3600));
  });

  it('gives new bytes (a new storage key) a new URL at once, and a variant a URL that names it', async () => {
    const { urls } = fileUrls();
    const original = await urls.urlOf(record);
    expect(await urls.urlOf({ ...record, storageKey: 'product/1/replaced' })).not.toBe(original);
    const thumb = new URL(await urls.urlOf(record, { name: 'thumb', storageKey: 'product/1/2f1c9a7e-thumb' }));
    expect([...thumb.searchParams.keys()]).toEqual(['variant', 'expires', 'signature']);
    expect(thumb.searchParams.get('variant')).toBe('thumb');
    const fields = {
      ...record,
      variant: { name: 'thumb', storageKey: 'product/1/2f1c9a7e-thumb' },
      expires: NEXT_HOUR_PLUS_TTL,
    };
    expect(urls.verify(fields, thumb.searchParams.get('signature')!)).toBe(true);
    expect(urls.verify({ ...record, expires: NEXT_HOUR_PLUS_TTL }, thumb.searchParams.get('signature')!)).toBe(false);
  });

  it('signs with the key it is given, so every instance with the same key accepts the URLs of the others', async () => {
    const key = randomBytes(32);
    const a = fileUrls({ urlSigningKey: key }).urls;
    const b = fileUrls({ urlSigningKey: key }).urls;
    expect(await a.urlOf(record)).toBe(await b.urlOf(record));
    expect(await fileUrls().urls.urlOf(record)).not.toBe(await a.urlOf(record));
  });

  it('uses windows of the TTL when it is shorter than an hour', async () => {
    const { urls } = fileUrls({ urlTtlMs: 5 * 60_000 });
    expect(new URL(await urls.urlOf(record)).searchParams.get('expires')).toBe(String(NOW / 1000 + 10 * 60));
  });

  describe('in direct mode', () => {
    it("asks the storage's signer once per window, from the window's start, with the type and disposition", async () => {
      const storage = new SigningStorage();
      const { urls, clock } = fileUrls({ urlMode: 'direct' }, storage);
      await urls.onModuleInit();
      const url = await urls.urlOf(record);
      clock.advance(30 * 60_000);
      expect(await urls.urlOf(record)).toBe(url);
      expect(storage.signer.calls).toEqual([
        {
          key: record.storageKey,
          signedAt: Date.UTC(2026, 10, 23, 10) / 1000,
          expiresIn: 2 * 3600,
          response: {
            contentType: 'image/png',
            contentDisposition: 'inline; filename=cover.png',
            cacheControl: 'private, max-age=3600',
          },
        },
      ]);
      await urls.urlOf(record, { name: 'thumb', storageKey: 'product/1/thumb', mimeType: 'image/webp' });
      expect(storage.signer.calls[1]).toMatchObject({
        key: 'product/1/thumb',
        response: { contentType: 'image/webp' },
      });
    });

    it('signs once for responses asking at the same time, and asks again after a failed signature', async () => {
      const storage = new SigningStorage();
      const { urls } = fileUrls({ urlMode: 'direct' }, storage);
      await urls.onModuleInit();
      storage.signer.failing = true;
      const asked = [urls.urlOf(record), urls.urlOf({ ...record })];
      await expect(Promise.all(asked)).rejects.toThrow('no credentials');
      expect(storage.signer.calls).toHaveLength(1);
      storage.signer.failing = false;
      const [first, second] = await Promise.all([urls.urlOf(record), urls.urlOf(record)]);
      expect(second).toBe(first);
      expect(storage.signer.calls).toHaveLength(2);
    });

    it('refuses to start on a storage that cannot sign its own URLs', async () => {
      const { urls } = fileUrls({ urlMode: 'direct' });
      await expect(urls.onModuleInit()).rejects.toThrow(/need a storage that signs its own URLs/);
    });
  });

  it('defaults to URLs relative to the root, living an hour', async () => {
    const storage = new FakeFileStorage();
    const urls = new FileUrls(resolveFileFieldsOptions({ storage }), storage, new FakeClock(NOW));
    expect(await urls.urlOf(record)).toMatch(/^\/files\/7\/signed\?expires=\d+&signature=[\w-]{43}$/);
    expect(HOUR_MS).toBe(resolveFileFieldsOptions({ storage }).urlTtlMs);
  });
});
