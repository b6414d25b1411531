import { CatalogedError, type ErrorCatalog } from '../../../errors/cataloged-error.js';
import { PARTIAL_UPLOAD, uploadComplete } from './draft-headers.js';

export enum DraftErrorCode {
  MismatchingOffset = 'mismatching-upload-offset',
  InconsistentLength = 'inconsistent-upload-length',
  NotPartialUpload = 'not-partial-upload',
}

const DRAFT_ERRORS: ErrorCatalog<DraftErrorCode> = {
  [DraftErrorCode.MismatchingOffset]: [409, 'Mismatching upload offset'],
  [DraftErrorCode.InconsistentLength]: [400, 'Inconsistent upload length values'],
  [DraftErrorCode.NotPartialUpload]: [415, `${PARTIAL_UPLOAD} expected`],
};

/** The problem types the draft registers with IANA: their clients recognise these URIs, not ours. */
const REGISTERED = new Set<DraftErrorCode>([DraftErrorCode.MismatchingOffset, DraftErrorCode.InconsistentLength]);
const IANA_PROBLEM_TYPES = 'https://iana.org/assignments/http-problem-types#';

/**
 * An error of the IETF resumable upload draft's own; always about the upload, never the file (Upload-Complete: ?0).
 */
export class DraftUploadError extends CatalogedError<DraftErrorCode> {
  override readonly registeredType: string | undefined;

  constructor(code: DraftErrorCode, detail: string) {
    super(DRAFT_ERRORS, code, detail);
    this.registeredType = REGISTERED.has(code) ? `${IANA_PROBLEM_TYPES}${code}` : undefined;
    this.headers['Upload-Complete'] = uploadComplete(false);
  }
}

/** 409 with the offset to go on from, in the header and in the draft's problem members. */
export function mismatchingOffset(expected: number, provided: number): DraftUploadError {
  const error = new DraftUploadError(
    DraftErrorCode.MismatchingOffset,
    `The upload is at offset ${expected}, not ${provided}; go on from ${expected}.`,
  );
  error.headers['Upload-Offset'] = String(expected);
  Object.assign(error.extensions, { 'expected-offset': expected, 'provided-offset': provided });
  return error;
}

export function inconsistentLength(detail: string): DraftUploadError {
  return new DraftUploadError(DraftErrorCode.InconsistentLength, detail);
}

export function notPartialUpload(): DraftUploadError {
  return new DraftUploadError(DraftErrorCode.NotPartialUpload, `Send the bytes to append as ${PARTIAL_UPLOAD}.`);
}
