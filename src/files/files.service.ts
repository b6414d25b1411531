import { Inject, Injectable } from '@nestjs/common';
import { InjectEntityManager } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import type { Request, Response } from 'express';
import type { EntityManager } from 'typeorm';
import type { Principal } from '../common/auth/principal.js';
import { UnitOfWork, type Transaction } from '../database/unit-of-work.js';
import { AttachmentOwners } from './attachment-owners.js';
import { FileRecordDto } from './file-record.dto.js';
import type { FileFieldDefinition } from './file-field.decorator.js';
import { FileRecord } from './file-record.entity.js';
import { FileRecordsRepository, type FieldSlot } from './file-records.repository.js';
import { FilesError, FilesErrorCode } from './files.errors.js';
import { FileEventPublisher } from './events/file-event-publisher.js';
import { FILE_FIELDS_OPTIONS, type ResolvedFileFieldsOptions } from './file-fields.options.js';
import { FileStorage } from './storage/file-storage.js';
import { MultipartReceiver } from './upload/multipart-receiver.js';
import { UploadSlots } from './upload/upload-slots.js';
import type { StoredPart } from './upload/streaming-storage-engine.js';

/** How many files one request may append to a multi field. */
export const MAX_FILES_PER_REQUEST = 20;

export interface UploadTarget {
  attachmentType: string;
  attachmentId: number;
  fieldName: string;
}

export interface UploadResult {
  /** true when records were added (201), false when a single field's record was replaced (200). */
  created: boolean;
  records: FileRecord[];
}

/** Attaches uploaded files to entity fields. */
@Injectable()
export class FilesService {
  constructor(
    @Inject(FILE_FIELDS_OPTIONS) private readonly options: ResolvedFileFieldsOptions,
    private readonly owners: AttachmentOwners,
    private readonly records: FileRecordsRepository,
    private readonly storage: FileStorage,
    private readonly receiver: MultipartReceiver,
    private readonly unitOfWork: UnitOfWork,
    @InjectEntityManager() private readonly manager: EntityManager,
    private readonly events: FileEventPublisher,
    private readonly slots: UploadSlots,
  ) {}

  /**
   * Takes one of the principal's upload slots (429 when it has none left) and checks the target before a byte is
   * read, streams the parts to storage, then records them in one transaction. The slot is freed when the upload
   * ends however it ends; a client that goes away frees it at once, whatever is still being cleaned up.
   */
  async upload(target: UploadTarget, principal: Principal, req: Request, res: Response): Promise<UploadResult> {
    const release = this.slots.acquire(principal.subject);
    res.once('close', release);
    try {
      return await this.receiveAndRecord(target, req, res);
    } finally {
      release();
    }
  }

  private async receiveAndRecord(target: UploadTarget, req: Request, res: Response): Promise<UploadResult> {
    const { owner, field, slot } = this.owners.resolveField(
      target.attachmentType,
      target.attachmentId,
      target.fieldName,
    );
    await this.owners.assertExists(this.manager, owner, slot.attachmentId, false);
    await this.assertRoomFor(this.manager, field, slot, 1);
    const parts = await this.receiver.receive(req, res, {
      newKey: () => `${slot.attachmentType}/${slot.attachmentId}/${randomUUID()}`,
      maxFiles: field.multi ? Math.min(MAX_FILES_PER_REQUEST, field.maxCount ?? Infinity) : 1,
      maxFileSize: Math.min(field.maxSize ?? Infinity, this.options.maxFileSize),
      accept: field.accept,
    });
    try {
      return await this.unitOfWork.run(async (tx) => {
        await this.owners.assertExists(tx.manager, owner, slot.attachmentId, tx.supportsRowLocks);
        if (field.multi) await this.assertRoomFor(tx.manager, field, slot, parts.length);
        const result = field.multi
          ? await this.append(tx.manager, slot, parts)
          : await this.replace(tx, slot, parts[0]);
        for (const record of result.records) {
          const kind = result.created ? 'file.created' : 'file.updated';
          await this.events.publish(tx, { kind, data: { file: FileRecordDto.from(record) } });
        }
        return result;
      });
    } catch (error) {
      await Promise.allSettled(parts.map((part) => this.storage.delete(part.key)));
      throw error;
    }
  }

  /** 409 when a multi field with a maxCount cannot take `adding` more files. */
  private async assertRoomFor(
    manager: EntityManager,
    field: FileFieldDefinition,
    slot: FieldSlot,
    adding: number,
  ): Promise<void> {
    if (!field.multi || field.maxCount === undefined) return;
    const count = await manager.count(FileRecord, { where: { ...slot } });
    if (count + adding > field.maxCount) {
      throw new FilesError(
        FilesErrorCode.FieldFull,
        `"${slot.field}" holds ${count} of at most ${field.maxCount} files; ${adding} more do not fit.`,
      );
    }
  }

  private async append(manager: EntityManager, slot: FieldSlot, parts: StoredPart[]): Promise<UploadResult> {
    const count = await manager.count(FileRecord, { where: { ...slot } });
    const created = parts.map((part, index) =>
      manager.create(FileRecord, { ...slot, ...fromPart(part), sortOrder: count + index }),
    );
    return { created: true, records: await manager.save(created) };
  }

  private async replace(tx: Transaction, slot: FieldSlot, part: StoredPart): Promise<UploadResult> {
    const [existing] = await this.records.inField(tx.manager, slot);
    if (!existing) {
      const record = tx.manager.create(FileRecord, { ...slot, ...fromPart(part), sortOrder: 0 });
      return { created: true, records: [await tx.manager.save(record)] };
    }
    const previousKey = existing.path;
    Object.assign(existing, fromPart(part));
    const saved = await tx.manager.save(existing);
    tx.afterCommit(() => this.storage.delete(previousKey));
    return { created: false, records: [saved] };
  }
}

function fromPart(part: StoredPart): Partial<FileRecord> {
  return {
    path: part.key,
    originalName: part.originalName,
    mimeType: part.mimeType,
    size: part.size,
    checksumSha256: part.checksumSha256,
  };
}
