import { Injectable } from '@nestjs/common';
import type { Principal } from '../../../../auth/principal.js';
import { FilesService, type UploadResult } from '../../../attach/files.service.js';
import { FileStorage } from '../../../../storage/file-storage.js';
import { storageFault } from '../../../../errors/files.errors.js';
import type { ResolvedField } from '../../../fields/attachment-owners.js';
import { IMAGE_HEAD_BYTES, sniffedType, UploadInspection } from '../../../intake/inspection/upload-inspection.js';
import type { ResumableUpload } from '../state/resumable-upload.entity.js';
import { ResumableUploadsRepository } from '../state/resumable-uploads.repository.js';
import type { ResumableStorage } from '../storage/resumable-storage.js';
import { HashCarry } from './hash-carry.js';

/**
 * Turns a complete upload into its file record through the same path as a multipart upload (FilesService.attach):
 * the bytes become the stored object, images are checked as there, and the upload's row goes in the record's
 * transaction. Whatever fails, the upload ends: its bytes and row are removed.
 */
@Injectable()
export class UploadCompletion {
  constructor(
    private readonly files: FilesService,
    private readonly storage: FileStorage,
    private readonly rows: ResumableUploadsRepository,
    private readonly hashes: HashCarry,
    private readonly inspection: UploadInspection,
  ) {}

  async complete(
    unfinished: ResumableStorage,
    upload: ResumableUpload,
    resolved: ResolvedField,
    principal: Principal,
  ): Promise<UploadResult> {
    const { storageKey: key, offset: size } = upload;
    try {
      const head = await unfinished.readHead(key, IMAGE_HEAD_BYTES);
      const mimeType = upload.mimeType ?? (await sniffedType(head));
      await unfinished.finish(key);
      // The hash carried from request to request, or one read of the stored file when they came out of order.
      const checksumSha256 = this.hashes.take(upload.id, size) ?? (await this.inspection.sha256(key));
      const image = await this.inspection.image(key, head, size, mimeType, resolved.field);
      const part = { key, originalName: upload.originalName, size, checksumSha256, mimeType, image };
      return await this.files.attach(resolved, principal, [part], (tx) => this.rows.delete(upload.id, tx.manager));
    } catch (error) {
      this.hashes.forget(upload.id);
      await Promise.allSettled([unfinished.abort(key), this.storage.delete(key), this.rows.delete(upload.id)]);
      throw storageFault(error) ?? error;
    }
  }
}
