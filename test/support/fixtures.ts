import type { Response } from 'supertest';

/** The smallest valid PNG: 1x1 pixel. */
export const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d4948445200000001000000010806000000' +
    '1f15c4890000000d494441540899636060606000000005000187a14ed40000000049454e44ae426082',
  'hex',
);

/** The smallest valid GIF: 1x1 pixel (fields with image variants refuse images that do not decode). */
export const GIF = Buffer.from(
  '474946383961010001008000004c697100000021f90405000000002c00000000010001000002024c01003b',
  'hex',
);

/** A minimal PDF header is enough for type sniffing. */
export const PDF = Buffer.from('%PDF-1.7\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');

/** Asserts an RFC 9457 problem details response and returns its body. */
export function expectProblem(res: Response, status: number, code?: string): Record<string, unknown> {
  expect(res.status).toBe(status);
  expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
  expect(res.body).toEqual(
    expect.objectContaining({
      type: expect.any(String),
      title: expect.any(String),
      status,
      detail: expect.any(String),
    }),
  );
  if (code) expect(res.body.type).toBe(`/problems/${code}`);
  return res.body as Record<string, unknown>;
}
