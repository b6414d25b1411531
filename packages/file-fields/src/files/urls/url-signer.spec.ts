import { createHmac, randomBytes } from 'node:crypto';
import { UrlSigner, urlWindow, type SignedFields } from './url-signer.js';

describe('UrlSigner', () => {
  const key = randomBytes(32);
  const signer = new UrlSigner(key);
  const fields: SignedFields = { id: 7, storageKey: 'product/1/2f1c9a7e', expires: 1_800_000_000 };
  const thumb: SignedFields = { ...fields, variant: { name: 'thumb', storageKey: 'product/1/2f1c9a7e.thumb' } };

  it('signs with HMAC-SHA256 of the key over every field, as base64url', () => {
    const expected = createHmac('sha256', key)
      .update('file-url:v1\n7\nproduct/1/2f1c9a7e\nthumb\nproduct/1/2f1c9a7e.thumb\n1800000000')
      .digest('base64url');
    expect(signer.sign(thumb)).toBe(expected);
    expect(signer.sign(fields)).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(signer.sign(fields)).toBe(signer.sign({ ...fields }));
  });

  it('verifies its own signatures', () => {
    expect(signer.verify(fields, signer.sign(fields))).toBe(true);
    expect(signer.verify(thumb, signer.sign(thumb))).toBe(true);
  });

  it('refuses a signature when any signed field differs', () => {
    const signature = signer.sign(thumb);
    const others: SignedFields[] = [
      { ...thumb, id: 8 },
      { ...thumb, storageKey: 'product/1/other' },
      { ...thumb, expires: thumb.expires + 1 },
      { ...thumb, variant: { name: 'large', storageKey: thumb.variant!.storageKey } },
      { ...thumb, variant: { name: 'thumb', storageKey: 'product/1/other.thumb' } },
      fields,
    ];
    for (const other of others) expect(signer.verify(other, signature)).toBe(false);
  });

  it('refuses altered, truncated, malformed signatures and those of another key', () => {
    const signature = signer.sign(fields);
    const flipped = `${signature.slice(0, 10)}${signature[10] === 'A' ? 'B' : 'A'}${signature.slice(11)}`;
    // The last character carries 4 bits and 2 ignored ones: another spelling of the same bytes is refused too.
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const respelled = `${signature.slice(0, 42)}${alphabet[alphabet.indexOf(signature[42]) ^ 1]}`;
    expect(Buffer.from(respelled, 'base64url')).toEqual(Buffer.from(signature, 'base64url'));
    for (const bad of [flipped, respelled, signature.slice(0, 42), `${signature}A`, '', `${signature.slice(0, 42)}+`]) {
      expect(signer.verify(fields, bad)).toBe(false);
    }
    expect(new UrlSigner(randomBytes(32)).verify(fields, signature)).toBe(false);
  });

  it('refuses a key shorter than 32 bytes', () => {
    expect(() => new UrlSigner(randomBytes(16))).toThrow(/at least 32 bytes/);
  });
});

describe('urlWindow', () => {
  const hour = 3600;
  const at = (iso: string) => Date.parse(iso);
  const seconds = (iso: string) => Date.parse(iso) / 1000;

  it('issues the same expiry for a whole hour: the next full hour plus the TTL', () => {
    const first = urlWindow(at('2026-11-23T10:00:00Z'), hour);
    expect(first).toEqual({ start: seconds('2026-11-23T10:00:00Z'), expires: seconds('2026-11-23T12:00:00Z') });
    expect(urlWindow(at('2026-11-23T10:59:59.999Z'), hour)).toEqual(first);
    expect(urlWindow(at('2026-11-23T11:00:00Z'), hour).expires).toBe(seconds('2026-11-23T13:00:00Z'));
  });

  it('keeps every URL alive at least the TTL, at most a window more', () => {
    for (const ttl of [60, 300, hour, 86_400]) {
      for (let now = at('2026-11-23T10:00:00Z'); now < at('2026-11-23T13:00:00Z'); now += 37_013) {
        const { start, expires } = urlWindow(now, ttl);
        const left = expires - now / 1000;
        expect(left).toBeGreaterThanOrEqual(ttl);
        expect(left).toBeLessThanOrEqual(ttl + Math.min(ttl, hour));
        expect(start * 1000).toBeLessThanOrEqual(now);
        expect(now - start * 1000).toBeLessThan(Math.min(ttl, hour) * 1000);
      }
    }
  });

  it('uses windows of the TTL when it is shorter than an hour, and of an hour when longer', () => {
    expect(urlWindow(at('2026-11-23T10:07:00Z'), 300)).toEqual({
      start: seconds('2026-11-23T10:05:00Z'),
      expires: seconds('2026-11-23T10:15:00Z'),
    });
    expect(urlWindow(at('2026-11-23T10:07:00Z'), 86_400)).toEqual({
      start: seconds('2026-11-23T10:00:00Z'),
      expires: seconds('2026-11-24T11:00:00Z'),
    });
  });
});
