import type { Request } from 'express';
import {
  DRAFT_INTEROP_VERSION,
  isDraftRequest,
  sfBoolean,
  sfInteger,
  speaksInteropVersion,
  uploadComplete,
  uploadLimit,
} from './draft-headers.js';

const req = (headers: Record<string, string>, type?: string) =>
  ({ headers, is: (wanted: string) => (type === wanted ? wanted : false) }) as unknown as Request;
const status = (code: number) => expect.objectContaining({ status: code }) as Error;

describe('IETF resumable upload draft headers', () => {
  it('reads Upload-Complete as a structured-field Boolean, parameters and all, and nothing else', () => {
    expect(sfBoolean(req({ 'upload-complete': '?1' }), 'upload-complete')).toBe(true);
    expect(sfBoolean(req({ 'upload-complete': '?0' }), 'upload-complete')).toBe(false);
    expect(sfBoolean(req({ 'upload-complete': ' ?1;note="x"' }), 'upload-complete')).toBe(true);
    expect(sfBoolean(req({}), 'upload-complete')).toBeUndefined();
    for (const bad of ['1', 'true', '?2', '?1, ?0', '', '"?1"']) {
      expect(() => sfBoolean(req({ 'upload-complete': bad }), 'upload-complete')).toThrow(status(400));
    }
  });

  it('reads Upload-Offset and Upload-Length as non-negative structured-field Integers', () => {
    expect(sfInteger(req({ 'upload-offset': '0' }), 'upload-offset')).toBe(0);
    expect(sfInteger(req({ 'upload-length': '123456789012' }), 'upload-length')).toBe(123456789012);
    expect(sfInteger(req({ 'upload-length': '42;x=1.5' }), 'upload-length')).toBe(42);
    expect(sfInteger(req({}), 'upload-offset')).toBeUndefined();
    for (const bad of ['-1', '5.0', '1e3', '0x10', '?1', '"5"', '1234567890123456', '1, 2']) {
      expect(() => sfInteger(req({ 'upload-offset': bad }), 'upload-offset')).toThrow(status(400));
    }
  });

  it('accepts its interop version, none (no 104 then), and refuses another with 412 naming its own', () => {
    const version = String(DRAFT_INTEROP_VERSION);
    expect(speaksInteropVersion(req({ 'upload-draft-interop-version': version }))).toBe(true);
    expect(speaksInteropVersion(req({}))).toBe(false);
    expect(() => speaksInteropVersion(req({ 'upload-draft-interop-version': '3' }))).toThrow(
      expect.objectContaining({ status: 412, headers: { 'Upload-Draft-Interop-Version': version } }) as Error,
    );
    expect(() => speaksInteropVersion(req({ 'upload-draft-interop-version': 'eight' }))).toThrow(status(400));
  });

  it('tells the draft from tus and multipart', () => {
    expect(isDraftRequest(req({ 'upload-complete': '?0' }))).toBe(true);
    expect(isDraftRequest(req({ 'upload-draft-interop-version': '8' }))).toBe(true);
    expect(isDraftRequest(req({ 'upload-offset': '0' }, 'application/partial-upload'))).toBe(true);
    expect(isDraftRequest(req({ 'tus-resumable': '1.0.0', 'upload-complete': '?1' }))).toBe(false);
    expect(isDraftRequest(req({ 'upload-length': '10' }, 'multipart/form-data'))).toBe(false);
  });

  it('writes Upload-Limit as a Dictionary and Upload-Complete as a Boolean', () => {
    expect(uploadLimit(52_428_800, 3599.7)).toBe('max-size=52428800, max-age=3599');
    expect(uploadLimit(10, -5)).toBe('max-size=10, max-age=0');
    expect(uploadLimit(10)).toBe('max-size=10');
    expect([uploadComplete(true), uploadComplete(false)]).toEqual(['?1', '?0']);
  });
});
