import { Inject, Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { pipeline } from 'node:stream/promises';
import type { Principal } from '../../../common/auth/principal.js';
import type { ResolvedField } from '../../fields/attachment-owners.js';
import { FILE_FIELDS_OPTIONS, type ResolvedFileFieldsOptions } from '../../fields/file-fields.options.js';
import { storageFault } from '../../files.errors.js';
import { FilesService, type UploadResult } from '../../files.service.js';
import { imageRulesOf } from '../../images/image-options.js';
import { ImageProbe } from '../../images/probe/image-probe.js';
import { FileStorage } from '../../storage/file-storage.js';
import { SNIFF_BYTES } from '../../upload/byte-inspector.js';
import { sniffMimeType } from '../../upload/sniff-mime-type.js';
import type { ResumableUpload } from '../state/resumable-upload.entity.js';
import { ResumableUploadsRepository } from '../state/resumable-uploads.repository.js';
import type { ResumableStorage } from '../storage/resumable-storage.js';
import { HashCarry } from './hash-carry.js';

/** As the multipart path keeps of a raster image: enough for nearly every header (see StreamingStorageEngine). */
const IMAGE_HEAD_BYTES = 256 * 1024;

/**
 * Turns a complete upload into its file record through the same path as a multipart upload (FilesService.attach):
 * the bytes become the stored object, images are checked as there, and the upload's row goes in the record's
 * transaction. Whatever fails, the upload ends: its bytes and row are removed.
 */
@Injectable()
export class UploadCompletion {
  constructor(
    @Inject(FILE_FIELDS_OPTIONS) private readonly options: ResolvedFileFieldsOptions,
    private readonly files: FilesService,
    private readonly storage: FileStorage,
    private readonly rows: ResumableUploadsRepository,
    private readonly hashes: HashCarry,
    private readonly images: ImageProbe,
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
      const mimeType = upload.mimeType ?? (await sniffMimeType(head.subarray(0, SNIFF_BYTES)));
      await unfinished.finish(key);
      const checksumSha256 = this.hashes.take(upload.id, size) ?? (await this.hashStored(key));
      const rules = imageRulesOf(resolved.field, this.options.imageDecodeBytes);
      const image = await this.images.inspect({ key, head, size, mimeType }, rules);
      const part = { key, originalName: upload.originalName, size, checksumSha256, mimeType, image };
      return await this.files.attach(resolved, principal, [part], (tx) => this.rows.delete(upload.id, tx.manager));
    } catch (error) {
      this.hashes.forget(upload.id);
      await Promise.allSettled([unfinished.abort(key), this.storage.delete(key), this.rows.delete(upload.id)]);
      throw storageFault(error) ?? error;
    }
  }

  /**
   * The file's SHA-256 when its requests did not all arrive here in order: one sequential read of the stored file,
   * streamed (about a second per 1.5 GiB on local disk, most of it hashing).
   */
  private async hashStored(key: string): Promise<string> {
    const hash = createHash('sha256');
    await pipeline(await this.storage.get(key), hash);
    return hash.digest('hex');
  }
}
