import { CatalogedError, type ErrorCatalog } from './cataloged-error.js';

export enum FilesErrorCode {
  UnknownAttachmentType = 'unknown-attachment-type',
  UnknownFileField = 'unknown-file-field',
  EntityNotFound = 'entity-not-found',
  FileMissing = 'file-missing',
  MalformedMultipart = 'malformed-multipart',
  NotMultipart = 'not-multipart',
  TooManyFiles = 'too-many-files',
  FileTooLarge = 'file-too-large',
  FileNotFound = 'file-not-found',
  UnsupportedMediaType = 'unsupported-media-type',
  FieldFull = 'field-full',
  OrderMismatch = 'order-mismatch',
  NotMultiField = 'not-a-multi-field',
  RangeNotSatisfiable = 'range-not-satisfiable',
  TooManyUploads = 'too-many-uploads',
  TooManyOpenUploads = 'too-many-open-uploads',
  StorageFull = 'storage-full',
  StorageUnavailable = 'storage-unavailable',
  FileContentUnavailable = 'file-content-unavailable',
  FileUrlInvalid = 'file-url-invalid',
  FileUrlExpired = 'file-url-expired',
  ImageTooLarge = 'image-too-large',
  ImageNotDecodable = 'image-not-decodable',
  VariantNotFound = 'variant-not-found',
}

const FILES_ERRORS: ErrorCatalog<FilesErrorCode> = {
  [FilesErrorCode.UnknownAttachmentType]: [404, 'Unknown attachment type'],
  [FilesErrorCode.UnknownFileField]: [404, 'Unknown file field'],
  [FilesErrorCode.EntityNotFound]: [404, 'Entity not found'],
  [FilesErrorCode.FileMissing]: [400, 'File part missing'],
  [FilesErrorCode.MalformedMultipart]: [400, 'Malformed multipart body'],
  [FilesErrorCode.NotMultipart]: [415, 'Multipart body expected'],
  [FilesErrorCode.TooManyFiles]: [400, 'Too many files'],
  [FilesErrorCode.FileTooLarge]: [413, 'File too large'],
  [FilesErrorCode.FileNotFound]: [404, 'File not found'],
  [FilesErrorCode.UnsupportedMediaType]: [415, 'File type not accepted'],
  [FilesErrorCode.FieldFull]: [409, 'File field is full'],
  [FilesErrorCode.OrderMismatch]: [409, 'Order does not match the field'],
  [FilesErrorCode.NotMultiField]: [400, 'Not a multi field'],
  [FilesErrorCode.RangeNotSatisfiable]: [416, 'Range not satisfiable'],
  [FilesErrorCode.TooManyUploads]: [429, 'Too many uploads in flight', 5],
  // Retry-After is set by the admission: when the caller's soonest unfinished upload expires.
  [FilesErrorCode.TooManyOpenUploads]: [429, 'Too many unfinished uploads'],
  [FilesErrorCode.StorageFull]: [507, 'File storage is full'],
  [FilesErrorCode.StorageUnavailable]: [503, 'File storage unavailable', 30],
  [FilesErrorCode.FileContentUnavailable]: [503, 'File content unavailable', 60],
  [FilesErrorCode.FileUrlInvalid]: [403, 'Invalid file URL'],
  [FilesErrorCode.FileUrlExpired]: [403, 'File URL expired'],
  [FilesErrorCode.ImageTooLarge]: [413, 'Image has too many pixels'],
  [FilesErrorCode.ImageNotDecodable]: [415, 'Image cannot be decoded'],
  [FilesErrorCode.VariantNotFound]: [404, 'Variant not found'],
};

/** An error of the files module; its code decides the status. */
export class FilesError extends CatalogedError<FilesErrorCode> {
  constructor(code: FilesErrorCode, detail: string, options?: { cause?: unknown }) {
    super(FILES_ERRORS, code, detail, options);
  }
}

/** A full device or quota: nothing can be stored until an operator makes room. */
const FULL = new Set(['ENOSPC', 'EDQUOT']);

/**
 * Faults of the storage itself (read-only or failing disk, wrong permissions, exhausted descriptors, an object store
 * that is unreachable, refuses our credentials or answers 5xx): the request was fine, so 503, not a generic 500.
 */
const UNAVAILABLE = new Set([
  'EROFS',
  'EIO',
  'EACCES',
  'EPERM',
  'EMFILE',
  'ENFILE',
  'EBUSY',
  'ENOTDIR',
  'ESTALE',
  'ENOTCONN',
  'ETIMEDOUT',
  'ECONNREFUSED',
  'ECONNRESET',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EPIPE',
  'TimeoutError',
  'RequestTimeout',
  'ServiceUnavailable',
  'SlowDown',
  'InternalError',
  'AccessDenied',
  'InvalidAccessKeyId',
  'SignatureDoesNotMatch',
  'NoSuchBucket',
]);

/** A stored object that is not there (local disk or S3). */
const MISSING = new Set(['ENOENT', 'NoSuchKey', 'NotFound']);

interface StorageErrorShape {
  code?: unknown;
  name?: unknown;
  $metadata?: { httpStatusCode?: unknown };
}

function identify(error: unknown): { code?: string; name?: string; httpStatus?: number } {
  if (typeof error !== 'object' || error === null) return {};
  const { code, name, $metadata } = error as StorageErrorShape;
  const httpStatus = $metadata?.httpStatusCode;
  return {
    code: typeof code === 'string' ? code : undefined,
    name: typeof name === 'string' ? name : undefined,
    httpStatus: typeof httpStatus === 'number' ? httpStatus : undefined,
  };
}

/** Whether a storage error says the object does not exist. */
export function isMissingObject(error: unknown): boolean {
  const { code, name, httpStatus } = identify(error);
  return MISSING.has(code ?? '') || MISSING.has(name ?? '') || httpStatus === 404;
}

/**
 * The problem a storage error should be answered with: 507 for a full storage, 503 with Retry-After for a storage
 * fault, undefined for anything else (a bug stays a 500 with an error id). The original error is kept as `cause`,
 * for the log.
 */
export function storageFault(error: unknown): FilesError | undefined {
  if (error instanceof FilesError) return error;
  const { code, name, httpStatus } = identify(error);
  const cause = { cause: error };
  if (FULL.has(code ?? '')) {
    return new FilesError(FilesErrorCode.StorageFull, 'The file storage has no space left; nothing was stored.', cause);
  }
  if (UNAVAILABLE.has(code ?? '') || UNAVAILABLE.has(name ?? '') || (httpStatus ?? 0) >= 500) {
    return new FilesError(
      FilesErrorCode.StorageUnavailable,
      'The file storage cannot be used at the moment; nothing was changed. Retry later.',
      cause,
    );
  }
  return undefined;
}

/** A short, safe description of a storage fault for the health check (never a path or a message). */
export function storageFaultReason(error: unknown): string {
  const { code, name, httpStatus } = identify(error);
  if (FULL.has(code ?? '')) return `storage is full (${code})`;
  if (code === 'EROFS') return 'storage is read-only (EROFS)';
  const known = [code, name].find((value) => value && (UNAVAILABLE.has(value) || MISSING.has(value)));
  if (known) return `storage fault (${known})`;
  return httpStatus ? `storage answered HTTP ${httpStatus}` : 'storage unreachable';
}
