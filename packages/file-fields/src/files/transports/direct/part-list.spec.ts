import { DirectUploadError } from './direct-upload.errors.js';
import { assertEveryPart, partsRefusedBy } from './part-list.js';

const MiB = 1024 * 1024;
const parts = (...numbers: number[]) => numbers.map((partNumber) => ({ partNumber, etag: `"${partNumber}"` }));

describe('assertEveryPart', () => {
  const upload = { size: 20 * MiB, partSize: 8 * MiB };

  it('takes every part once, in order', () => {
    expect(() => assertEveryPart(upload, parts(1, 2, 3))).not.toThrow();
  });

  it.each([[parts(1, 2)], [parts(1, 2, 3, 4)], [parts(2, 1, 3)], [parts(1, 1, 3)], [parts(0, 1, 2)]])(
    'refuses a list that misses, repeats, reorders or invents parts (%#)',
    (list) => {
      expect(() => assertEveryPart(upload, list)).toThrow(DirectUploadError);
    },
  );
});

describe('partsRefusedBy', () => {
  it('answers 400 for the part errors of S3, and nothing for other failures', () => {
    for (const name of ['InvalidPart', 'InvalidPartOrder', 'EntityTooSmall']) {
      expect(partsRefusedBy(Object.assign(new Error('s3'), { name }))?.status).toBe(400);
    }
    expect(partsRefusedBy(Object.assign(new Error('s3'), { name: 'InternalError' }))).toBeUndefined();
    expect(partsRefusedBy(undefined)).toBeUndefined();
  });
});
