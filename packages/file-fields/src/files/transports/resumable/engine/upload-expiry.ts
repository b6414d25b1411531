import type { ResolvedFileFieldsOptions } from '../../../fields/file-fields.options.js';
import type { ResumableUpload } from '../state/resumable-upload.entity.js';

/**
 * When an upload expires if no byte arrives after `now`: RESUMABLE_UPLOAD_EXPIRY from then, but never past its
 * absolute lifetime from its creation.
 */
export function uploadExpiry(options: ResolvedFileFieldsOptions, createdAt: number, now: number): number {
  return Math.min(now + options.resumableUploadExpiryMs, createdAt + options.resumableUploadLifetimeMs);
}

/** Past its expiry, or past its lifetime (a row written before the lifetime was set, or before it was lowered). */
export function isExpired(
  options: ResolvedFileFieldsOptions,
  upload: Pick<ResumableUpload, 'createdAt' | 'expiresAt'>,
  now: number,
): boolean {
  return upload.expiresAt <= now || upload.createdAt + options.resumableUploadLifetimeMs <= now;
}
