import type { DirectUpload } from './direct-upload.entity.js';
import { DirectUploadError, DirectUploadErrorCode } from './direct-upload.errors.js';
import type { UploadedPart } from '../../intake/s3/multipart-uploads.js';

/** What S3 answers to a part list it cannot join: the client's to correct (a wrong ETag, a part not sent). */
const REFUSED_PARTS = new Set(['InvalidPart', 'InvalidPartOrder', 'EntityTooSmall']);

/** 400 unless the list names every part of the upload once, in order. */
export function assertEveryPart(upload: Pick<DirectUpload, 'size' | 'partSize'>, parts: UploadedPart[]): void {
  const count = Math.ceil(upload.size / upload.partSize);
  if (parts.length !== count || parts.some((part, index) => part.partNumber !== index + 1)) {
    throw new DirectUploadError(
      DirectUploadErrorCode.PartsInvalid,
      `This upload has ${count} part(s): send part_number 1 to ${count}, in order, each with its ETag.`,
    );
  }
}

/** The 400 to answer when the storage refused to join the parts, else undefined. */
export function partsRefusedBy(error: unknown): DirectUploadError | undefined {
  const code = (error as { name?: unknown } | undefined)?.name;
  if (typeof code !== 'string' || !REFUSED_PARTS.has(code)) return undefined;
  return new DirectUploadError(
    DirectUploadErrorCode.PartsInvalid,
    `The storage refused the parts (${code}): send each part's ETag as its PUT answered it.`,
  );
}
