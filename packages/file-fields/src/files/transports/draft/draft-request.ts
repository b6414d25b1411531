import { parse as parseContentDisposition } from 'content-disposition';
import type { Request } from 'express';
import { ResumableError, ResumableErrorCode } from '../resumable/resumable.errors.js';
import { inconsistentLength } from './draft.errors.js';

/*
 * What a draft request says besides its structured fields: the length it implies, the file's name, whether it
 * carries a body.
 */

/**
 * The length a request declares: Upload-Length, or, when it completes the upload, its offset plus Content-Length;
 * both must agree (400 with the draft's problem type).
 */
export function knownLength(
  declared: number | undefined,
  complete: boolean,
  offset: number,
  req: Request,
): number | undefined {
  const contentLength = req.headers['content-length'];
  if (!complete || contentLength === undefined) return declared;
  // Node has checked that Content-Length is digits.
  const implied = offset + Number(contentLength);
  if (declared !== undefined && declared !== implied) {
    throw inconsistentLength(`Upload-Length says ${declared} bytes; this last request makes the upload ${implied}.`);
  }
  return implied;
}

/** A header the draft requires of this request: 400 without it. */
export function required<T>(value: T | undefined, header: string): T {
  if (value === undefined) {
    throw new ResumableError(ResumableErrorCode.InvalidUploadHeader, `Send ${header}, as the draft asks.`);
  }
  return value;
}

/** The file name of Content-Disposition (`inline; filename="..."`, or `filename*=` in UTF-8), if it has one. */
export function filenameOf(req: Request): string | undefined {
  const disposition = req.headers['content-disposition'];
  if (disposition === undefined) return undefined;
  try {
    return parseContentDisposition(disposition).parameters.filename;
  } catch {
    throw new ResumableError(ResumableErrorCode.InvalidUploadHeader, 'Content-Disposition is malformed.');
  }
}

export function hasBody(req: Request): boolean {
  const length = req.headers['content-length'];
  return length !== undefined ? length !== '0' : req.headers['transfer-encoding'] !== undefined;
}
