import type { Provider } from '@nestjs/common';
import { DirectUploadsRepository } from './direct-uploads.repository.js';
import { DirectUploadsService } from './direct-uploads.service.js';
import { DirectUploadsSweeper } from './direct-uploads.sweeper.js';
import { StoredObjectCheck } from './stored-object-check.js';

export { DirectUpload } from './direct-upload.entity.js';
export { DirectUploadsController } from './direct-uploads.controller.js';

/** The parts of direct-to-S3 uploads, for FileFieldsModule. */
export const DIRECT_UPLOAD_PROVIDERS: Provider[] = [
  DirectUploadsRepository,
  DirectUploadsService,
  DirectUploadsSweeper,
  StoredObjectCheck,
];
