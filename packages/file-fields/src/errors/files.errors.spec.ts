import { FilesError, isMissingObject, storageFault, storageFaultReason } from './files.errors.js';

const withCode = (code: string) => Object.assign(new Error(`${code} at /var/lib/files/x`), { code });
const s3 = (name: string, httpStatusCode: number) =>
  Object.assign(new Error(name), { name, $metadata: { httpStatusCode } });

describe('storage faults', () => {
  it.each(['ENOSPC', 'EDQUOT'])('maps %s to 507 storage-full without Retry-After', (code) => {
    const error = storageFault(withCode(code));
    expect(error).toMatchObject({ status: 507, code: 'storage-full', headers: {} });
    expect(error?.message).not.toContain('/var/lib');
  });

  it.each([
    ['EROFS', withCode('EROFS')],
    ['EIO', withCode('EIO')],
    ['EACCES', withCode('EACCES')],
    ['an unreachable endpoint', withCode('ECONNREFUSED')],
    ['an S3 500', s3('InternalError', 500)],
    ['an S3 503', s3('SlowDown', 503)],
    ['an unknown 5xx', s3('Whatever', 502)],
    ['an SDK timeout', Object.assign(new Error('t'), { name: 'TimeoutError' })],
  ])('maps %s to 503 storage-unavailable with Retry-After', (_name, error) => {
    const fault = storageFault(error);
    expect(fault).toBeInstanceOf(FilesError);
    expect(fault).toMatchObject({ status: 503, code: 'storage-unavailable' });
    expect(Number(fault?.headers['Retry-After'])).toBeGreaterThan(0);
    expect(fault?.cause).toBe(error);
  });

  it('leaves other errors (bugs) alone, so they stay a 500 with an error id', () => {
    expect(storageFault(new Error('Unsafe storage key: "x"'))).toBeUndefined();
    expect(storageFault(s3('NoSuchKey', 404))).toBeUndefined();
    expect(storageFault('a string')).toBeUndefined();
  });

  it('recognises a missing object on disk and in S3', () => {
    expect(isMissingObject(withCode('ENOENT'))).toBe(true);
    expect(isMissingObject(s3('NoSuchKey', 404))).toBe(true);
    expect(isMissingObject(withCode('EIO'))).toBe(false);
  });

  it('describes a fault for /health without its message', () => {
    expect(storageFaultReason(withCode('ENOSPC'))).toBe('storage is full (ENOSPC)');
    expect(storageFaultReason(withCode('EROFS'))).toBe('storage is read-only (EROFS)');
    expect(storageFaultReason(s3('AccessDenied', 403))).toBe('storage fault (AccessDenied)');
    expect(storageFaultReason(new Error('connect to 10.0.0.7 failed'))).toBe('storage unreachable');
  });
});
