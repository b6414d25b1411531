import type { Provider } from '@nestjs/common';
import { HashCarry } from './engine/hash-carry.js';
import { ResumableUploads } from './engine/resumable-uploads.service.js';
import { UploadCompletion } from './engine/upload-completion.js';
import { DraftProtocol } from './draft/draft-protocol.js';
import { ResumableSweep } from './state/resumable-sweep.js';
import { ResumableUploadsRepository } from './state/resumable-uploads.repository.js';
import { TusProtocol } from './tus/tus-protocol.js';

/** The resumable upload engine, its state and sweep, and the tus and IETF draft adapters (the controllers'). */
export const RESUMABLE_PROVIDERS: Provider[] = [
  ResumableUploadsRepository,
  ResumableSweep,
  HashCarry,
  UploadCompletion,
  ResumableUploads,
  TusProtocol,
  DraftProtocol,
];
