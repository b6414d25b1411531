import { DomainError } from '../common/errors/domain-error.js';

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
}

/** An error of the files module; its code decides the status. */
export class FilesError extends DomainError {
  private static readonly catalog: Record<FilesErrorCode, [number, string]> = {
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
  };

  readonly status: number;
  readonly title: string;

  constructor(
    readonly code: FilesErrorCode,
    detail: string,
  ) {
    super(detail);
    [this.status, this.title] = FilesError.catalog[code];
  }
}
