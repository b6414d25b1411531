import type { Provider } from '@nestjs/common';
import { PENDING_UPLOAD_KINDS } from '../intake/pending/pending-upload-kind.js';
import { FileStorage } from '../../storage/file-storage.js';
import { DirectUploadsRepository } from './direct/direct-uploads.repository.js';
import { DirectUploadsService } from './direct/direct-uploads.service.js';
import { DirectPendingUploads } from './direct/direct-pending-uploads.js';
import { DraftProtocol } from './draft/draft-protocol.js';
import { FieldUploadProtocols } from './field-upload-protocols.js';
import { MultipartReceiver } from './multipart/multipart-receiver.js';
import { MultipartUploads } from './multipart/multipart-uploads.js';
import { HashCarry } from './resumable/engine/hash-carry.js';
import { ResumableUploads } from './resumable/engine/resumable-uploads.service.js';
import { UploadCompletion } from './resumable/engine/upload-completion.js';
import { ResumablePendingUploads } from './resumable/state/resumable-pending-uploads.js';
import { ResumableUploadsRepository } from './resumable/state/resumable-uploads.repository.js';
import { UnfinishedStorage } from './resumable/storage/unfinished-storage.js';
import { TusProtocol } from './tus/tus-protocol.js';
import { UploadResourceProtocols } from './upload-resource-protocols.js';

/**
 * The transports over intake and FilesService.attach: multipart, the resumable engine with tus and the IETF draft
 * over it, direct to S3; the two places that choose a request's protocol; the kinds of pending upload swept.
 */
export const TRANSPORT_PROVIDERS: Provider[] = [
  MultipartReceiver,
  MultipartUploads,
  ResumableUploadsRepository,
  {
    provide: UnfinishedStorage,
    inject: [FileStorage, ResumableUploadsRepository],
    useFactory: (storage: FileStorage, rows: ResumableUploadsRepository) => UnfinishedStorage.of(storage, rows),
  },
  ResumablePendingUploads,
  HashCarry,
  UploadCompletion,
  ResumableUploads,
  TusProtocol,
  DraftProtocol,
  DirectUploadsRepository,
  DirectUploadsService,
  DirectPendingUploads,
  {
    provide: PENDING_UPLOAD_KINDS,
    inject: [DirectPendingUploads, ResumablePendingUploads],
    useFactory: (direct: DirectPendingUploads, resumable: ResumablePendingUploads) => [direct, resumable],
  },
  FieldUploadProtocols,
  UploadResourceProtocols,
];
