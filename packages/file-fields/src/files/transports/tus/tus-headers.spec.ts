import type { Request } from 'express';
import { assertTusVersion, creationLength, integerHeader, uploadChecksum, uploadMetadata } from './tus-headers.js';

const req = (headers: Record<string, string>) => ({ headers }) as unknown as Request;
const b64 = (text: string) => Buffer.from(text).toString('base64');

describe('tus headers', () => {
  it('reads Upload-Metadata pairs, keeping the raw value, and refuses malformed or repeated keys', () => {
    const raw = `filename ${b64('été.png')},filetype ${b64('image/png')},is_confidential`;
    const { values, raw: kept } = uploadMetadata(req({ 'upload-metadata': raw }));
    expect(kept).toBe(raw);
    expect(Object.fromEntries(values)).toEqual({ filename: 'été.png', filetype: 'image/png', is_confidential: '' });
    for (const bad of [`a ${b64('x')},a ${b64('y')}`, 'a b c', 'a @@@', 'x'.repeat(5000)]) {
      expect(() => uploadMetadata(req({ 'upload-metadata': bad }))).toThrow(
        expect.objectContaining({ status: 400 }) as Error,
      );
    }
  });

  it('takes Upload-Length or Upload-Defer-Length: 1, exactly one of them', () => {
    expect(creationLength(req({ 'upload-length': '42' }))).toBe(42);
    expect(creationLength(req({ 'upload-defer-length': '1' }))).toBeNull();
    const bad: Array<Record<string, string>> = [
      {},
      { 'upload-length': '1', 'upload-defer-length': '1' },
      { 'upload-defer-length': '0' },
    ];
    for (const headers of bad) {
      expect(() => creationLength(req(headers))).toThrow(expect.objectContaining({ status: 400 }) as Error);
    }
    expect(() => integerHeader(req({ 'upload-offset': '-1' }), 'upload-offset')).toThrow();
    expect(() => integerHeader(req({ 'upload-offset': '1e3' }), 'upload-offset')).toThrow();
  });

  it('reads Upload-Checksum of an offered algorithm only', () => {
    const digest = Buffer.alloc(32, 1);
    expect(uploadChecksum(req({ 'upload-checksum': `sha256 ${digest.toString('base64')}` }))).toEqual({
      algorithm: 'sha256',
      digest,
    });
    expect(uploadChecksum(req({}))).toBeUndefined();
    expect(() => uploadChecksum(req({ 'upload-checksum': 'crc32 AAAA' }))).toThrow(
      expect.objectContaining({ status: 400 }) as Error,
    );
  });

  it('refuses the names every object inherits (constructor, __proto__, ...) as algorithms it does not offer', () => {
    for (const name of ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf']) {
      expect(() => uploadChecksum(req({ 'upload-checksum': `${name} AAAA` }))).toThrow(
        expect.objectContaining({ status: 400, code: 'invalid-upload-header' }) as Error,
      );
    }
  });

  it('answers 412 with Tus-Version to another version', () => {
    expect(() => assertTusVersion(req({ 'tus-resumable': '1.0.0' }))).not.toThrow();
    expect(() => assertTusVersion(req({ 'tus-resumable': '0.2.2' }))).toThrow(
      expect.objectContaining({ status: 412, headers: { 'Tus-Version': '1.0.0' } }) as Error,
    );
  });
});
