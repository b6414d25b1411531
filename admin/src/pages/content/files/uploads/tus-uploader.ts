import type { TokenSource } from '../../../../api/client';
import { uploadPath, type Uploader } from '../../../../api/uploads';

/**
 * The administration UI's uploader: tus 1.0 at each field's upload URL, through Uppy, whose code is loaded the first
 * time a field uploads, so that it weighs on the content pages only.
 */
export function createTusUploader(tokens: TokenSource, baseUrl = globalThis.location?.origin ?? ''): Uploader {
  return async ({ attachmentType, attachmentId, fieldName }, listener) => {
    const { openUppyQueue } = await import('./uppy-upload-queue');
    return openUppyQueue(tokens, `${baseUrl}${uploadPath(attachmentType, attachmentId, fieldName)}`, listener);
  };
}
