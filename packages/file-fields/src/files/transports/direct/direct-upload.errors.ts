import { CatalogedError, type ErrorCatalog } from '../../../errors/cataloged-error.js';

export enum DirectUploadErrorCode {
  Unavailable = 'direct-uploads-unavailable',
  NotFound = 'direct-upload-not-found',
  Completing = 'direct-upload-completing',
  PartsInvalid = 'direct-upload-parts-invalid',
  SizeMismatch = 'direct-upload-size-mismatch',
}

const DIRECT_UPLOAD_ERRORS: ErrorCatalog<DirectUploadErrorCode> = {
  // 409, not 501: the request is fine and the field takes the same file through the plain upload.
  [DirectUploadErrorCode.Unavailable]: [409, 'Direct uploads need S3 storage'],
  [DirectUploadErrorCode.NotFound]: [404, 'Direct upload not found'],
  [DirectUploadErrorCode.Completing]: [409, 'Direct upload already being completed'],
  [DirectUploadErrorCode.PartsInvalid]: [400, 'Parts do not match the upload'],
  [DirectUploadErrorCode.SizeMismatch]: [422, 'Stored size differs from the declared size'],
};

/** An error of direct uploads; its code decides the status. */
export class DirectUploadError extends CatalogedError<DirectUploadErrorCode> {
  constructor(code: DirectUploadErrorCode, detail: string, options?: { cause?: unknown }) {
    super(DIRECT_UPLOAD_ERRORS, code, detail, options);
  }
}

/** The same answer to an unknown id, an expired upload and another principal's upload: none tells them apart. */
export function directUploadNotFound(): DirectUploadError {
  return new DirectUploadError(DirectUploadErrorCode.NotFound, 'No such direct upload, or it has expired.');
}
