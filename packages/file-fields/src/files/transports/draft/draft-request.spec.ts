import type { Request } from 'express';
import { knownLength, required } from './draft-request.js';

const req = (headers: Record<string, string>) => ({ headers }) as unknown as Request;
const IANA = 'https://iana.org/assignments/http-problem-types#';

describe('IETF resumable upload draft requests', () => {
  it('takes the length a last request implies (its offset plus Content-Length), or Upload-Length otherwise', () => {
    expect(knownLength(undefined, true, 100, req({ 'content-length': '10' }))).toBe(110);
    expect(knownLength(110, true, 100, req({ 'content-length': '10' }))).toBe(110);
    expect(knownLength(500, false, 100, req({ 'content-length': '10' }))).toBe(500);
    // Chunked: the length is known once the body has ended.
    expect(knownLength(undefined, true, 100, req({}))).toBeUndefined();
  });

  it('refuses an Upload-Length that the last request contradicts: 400 with the draft problem type', () => {
    let refused: unknown;
    try {
      knownLength(500, true, 100, req({ 'content-length': '10' }));
    } catch (error) {
      refused = error;
    }
    expect(refused).toMatchObject({
      status: 400,
      code: 'inconsistent-upload-length',
      registeredType: `${IANA}inconsistent-upload-length`,
      headers: { 'Upload-Complete': '?0' },
    });
  });

  it('refuses a request without a field the draft requires (400 invalid-upload-header), naming it', () => {
    expect(required(0, 'Upload-Offset')).toBe(0);
    expect(() => required(undefined, 'Upload-Offset')).toThrow(
      expect.objectContaining({
        status: 400,
        code: 'invalid-upload-header',
        message: expect.stringMatching(/Upload-Offset/) as unknown,
      }) as Error,
    );
  });
});
