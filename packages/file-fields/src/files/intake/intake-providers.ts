import type { Provider } from '@nestjs/common';
import { FileStorage } from '../../storage/file-storage.js';
import { FieldAdmission } from './admission/field-admission.js';
import { UploadAdmission } from './admission/open-upload-limits.js';
import { UploadSlots } from './admission/upload-slots.js';
import { UploadInspection } from './inspection/upload-inspection.js';
import { PendingUploadsSweep } from './pending/pending-uploads-sweep.js';
import { StorageMultipart } from './s3/storage-multipart.js';

/**
 * The beginning every upload shares, whatever its transport: field admission, open-upload limits and slots, the
 * inspection of its bytes, the sweep of pending uploads, the storage's multipart uploads.
 */
export const INTAKE_PROVIDERS: Provider[] = [
  FieldAdmission,
  UploadAdmission,
  UploadSlots,
  UploadInspection,
  PendingUploadsSweep,
  {
    provide: StorageMultipart,
    inject: [FileStorage],
    useFactory: (storage: FileStorage) => StorageMultipart.of(storage),
  },
];
