import { CatalogedError, type ErrorCatalog } from '../../../errors/cataloged-error.js';

export enum ResumableErrorCode {
  UploadNotFound = 'upload-not-found',
  UploadExpired = 'upload-expired',
  UploadLocked = 'upload-locked',
  OffsetMismatch = 'upload-offset-mismatch',
  LengthExceeded = 'upload-length-exceeded',
  InvalidUploadHeader = 'invalid-upload-header',
  NotOffsetOctetStream = 'not-offset-octet-stream',
  ChecksumMismatch = 'checksum-mismatch',
  BodyIncomplete = 'upload-body-incomplete',
  ProtocolVersionUnsupported = 'protocol-version-unsupported',
  ResumableUnsupported = 'resumable-uploads-unsupported',
  MethodNotAllowed = 'method-not-allowed',
}

const RESUMABLE_ERRORS: ErrorCatalog<ResumableErrorCode> = {
  [ResumableErrorCode.UploadNotFound]: [404, 'Upload not found'],
  [ResumableErrorCode.UploadExpired]: [410, 'Upload expired'],
  [ResumableErrorCode.UploadLocked]: [423, 'Upload in use by another request', 1],
  [ResumableErrorCode.OffsetMismatch]: [409, 'Upload offset does not match'],
  [ResumableErrorCode.LengthExceeded]: [413, 'More bytes than the upload length'],
  [ResumableErrorCode.InvalidUploadHeader]: [400, 'Invalid upload header'],
  [ResumableErrorCode.NotOffsetOctetStream]: [415, 'application/offset+octet-stream expected'],
  [ResumableErrorCode.ChecksumMismatch]: [460, 'Checksum mismatch'],
  [ResumableErrorCode.BodyIncomplete]: [400, 'Request body ended early'],
  [ResumableErrorCode.ProtocolVersionUnsupported]: [412, 'Protocol version not supported'],
  [ResumableErrorCode.ResumableUnsupported]: [501, 'Resumable uploads not available with this storage'],
  [ResumableErrorCode.MethodNotAllowed]: [405, 'Method not allowed on an upload'],
};

/** An error of a resumable upload; its code decides the status. */
export class ResumableError extends CatalogedError<ResumableErrorCode> {
  constructor(code: ResumableErrorCode, detail: string, headers: Record<string, string> = {}) {
    super(RESUMABLE_ERRORS, code, detail);
    Object.assign(this.headers, headers);
  }
}

/** Another principal's upload, or none: the same answer, so that nobody learns which ids exist. */
export function uploadNotFound(): ResumableError {
  return new ResumableError(ResumableErrorCode.UploadNotFound, 'No such upload.');
}
