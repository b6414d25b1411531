import Uppy, { type Meta } from '@uppy/core';
import Tus, { type TusBody } from '@uppy/tus';
import { defaultOptions } from 'tus-js-client';
import type { TokenSource } from '../../../../api/client';
import type { UploadListener, UploadQueue } from '../../../../api/uploads';
import { mayRetry, tusRequestHooks, uploadError } from './tus-requests';

/** Bytes per PATCH: under the 100 MB request limit of common proxies, and few requests for a large file. */
const CHUNK_SIZE = 32 * 1024 * 1024;

/**
 * An upload queue over Uppy (headless: the page draws everything) and its tus plugin, sending to `endpoint`, one
 * file at a time. tus-js-client keeps each upload's URL in localStorage under a fingerprint of the file and the
 * endpoint, so the same file picked again after a reload resumes from what the service holds.
 */
export function openUppyQueue(tokens: TokenSource, endpoint: string, listener: UploadListener): UploadQueue {
  const uppy = new Uppy<Meta, TusBody>({ autoProceed: true });
  const hooks = tusRequestHooks(tokens, (id, offset, total) => listener.resuming(id, offset, total));
  uppy.use(Tus<Meta, TusBody>, {
    endpoint,
    limit: 1,
    chunkSize: CHUNK_SIZE,
    // The name and type the service records; the rest of Uppy's metadata is of no use to it.
    allowedMetaFields: ['name', 'type'],
    // A finished upload's URL is of no use: the same file uploaded again is a new file.
    removeFingerprintOnSuccess: true,
    ...hooks,
  });

  uppy.on('upload-progress', (file, progress) => {
    if (file) listener.progress(file.id, progress.bytesUploaded, progress.bytesTotal ?? file.size ?? 0);
  });
  uppy.on('upload-success', (file) => {
    if (!file) return;
    listener.completed(file.id);
    // Once the tus plugin let go of the upload (right after this event): removing it earlier would end it (DELETE).
    setTimeout(() => uppy.getFile(file.id) && uppy.removeFile(file.id));
  });
  uppy.on('upload-error', (file, error) => {
    if (!file) return;
    const failure = uploadError(error);
    // A refused upload cannot be resumed; another failure can, by picking the file again.
    if (!mayRetry(failure)) void forgetUpload(file.id, endpoint).catch(() => undefined);
    listener.failed(file.id, failure);
  });

  const setPaused = (id: string, paused: boolean) => {
    const file = uppy.getFile(id);
    if (file && !file.progress.uploadComplete && Boolean(file.isPaused) !== paused) uppy.pauseResume(id);
  };

  return {
    add(file) {
      try {
        return uppy.addFile(file);
      } catch (error) {
        // The only restriction Uppy has here: no file twice at once.
        throw (error as { isRestriction?: boolean }).isRestriction ? new Error('It is in the list already.') : error;
      }
    },
    pause: (id) => setPaused(id, true),
    resume: (id) => setPaused(id, false),
    retry: (id) => void uppy.retryUpload(id).catch(() => undefined),
    cancel: (id) => uppy.getFile(id) && uppy.removeFile(id),
    close() {
      for (const file of uppy.getFiles()) {
        try {
          setPaused(file.id, true);
        } catch {
          // The tus plugin throws for a file added a moment ago, before its upload was queued: that one goes on.
        }
      }
    },
  };
}

/**
 * Removes what tus-js-client keeps in localStorage to resume a file's upload, under the fingerprint @uppy/tus gives
 * it: `tus-<Uppy's file id>-<endpoint>`.
 */
async function forgetUpload(fileId: string, endpoint: string): Promise<void> {
  const storage = defaultOptions.urlStorage;
  const stored = await storage.findUploadsByFingerprint(['tus', fileId, endpoint].join('-'));
  await Promise.all(stored.map((upload) => storage.removeUpload(upload.urlStorageKey)));
}
