import { Inject, Injectable, Optional } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { Request, Response } from 'express';
import type { EntityManager } from 'typeorm';
import type { Principal } from '../common/auth/principal.js';
import { UnitOfWork, type Transaction } from '../database/unit-of-work.js';
import { AttachmentOwners, type ResolvedField } from './fields/attachment-owners.js';
import { FileRecordDto } from './records/file-record.dto.js';
import type { FileFieldDefinition } from './fields/file-field.decorator.js';
import { fileFieldRules } from './fields/file-field-rules.js';
import type { FileRecord } from './records/file-record.entity.js';
import { FileRecordsRepository, type FieldSlot, type NewFileRecord } from './records/file-records.repository.js';
import { FilesError, FilesErrorCode } from './files.errors.js';
import { FileEventPublisher } from './events/file-event-publisher.js';
import { FileActivityLog, NoFileActivityLog } from './events/file-activity-log.js';
import { FILE_FIELDS_OPTIONS, type ResolvedFileFieldsOptions } from './fields/file-fields.options.js';
import { FileStorage } from './storage/file-storage.js';
import { MultipartReceiver } from './upload/multipart-receiver.js';
import { UploadSlots } from './upload/upload-slots.js';
import type { StoredPart } from './upload/streaming-storage-engine.js';
import { FileVariants } from './images/variants/file-variants.service.js';
import { imageRulesOf } from './images/image-options.js';
import { storedKeysOf } from './images/variants/variant-state.js';

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
    private readonly fileRecords: FileRecordsRepository,
    private readonly storage: FileStorage,
    private readonly receiver: MultipartReceiver,
    private readonly unitOfWork: UnitOfWork,
    private readonly events: FileEventPublisher,
    private readonly slots: UploadSlots,
    private readonly variants: FileVariants,
    @Optional() private readonly activity: FileActivityLog = new NoFileActivityLog(),
  ) {}

  /**
   * Takes one of the principal's upload slots (429 when it has none left) and checks the target before a byte is
   * read, streams the parts to storage, then saves their file records in one transaction. The slot is freed when
   * the upload ends however it ends; a client that goes away frees it at once, whatever is still being cleaned up.
   */
  async upload(target: UploadTarget, principal: Principal, req: Request, res: Response): Promise<UploadResult> {
    const release = this.slots.acquire(principal.subject);
    res.once('close', release);
    try {
      return await this.receiveAndAttach(target, principal, req, res);
    } finally {
      release();
    }
  }

  private async receiveAndAttach(
    target: UploadTarget,
    principal: Principal,
    req: Request,
    res: Response,
  ): Promise<UploadResult> {
    const { attachmentType, attachmentId, fieldName } = target;
    const { owner, field, slot } = this.owners.resolveField(attachmentType, attachmentId, fieldName);
    await this.owners.assertExists(owner, attachmentId);
    await this.assertRoomFor(field, slot, 1);
    const rules = fileFieldRules(field, this.options.maxFileSize);
    const parts = await this.receiver.receive(req, res, {
      newKey: () => `${attachmentType}/${attachmentId}/${randomUUID()}`,
      maxFiles: rules.maxFilesPerRequest,
      maxFileSize: rules.maxSize,
      accept: field.accept,
      images: imageRulesOf(field, this.options.imageDecodeBytes),
    });
    return this.attach({ owner, field, slot }, principal, parts);
  }

  /**
   * Saves the records of parts already stored, in one transaction with `inTransaction` (a resumable upload removes
   * its own row there); sends their events and makes their variants once it commits. On failure the parts' bytes
   * are removed.
   */
  async attach(
    { owner, field, slot }: ResolvedField,
    principal: Principal,
    parts: StoredPart[],
    inTransaction?: (tx: Transaction) => Promise<void>,
  ): Promise<UploadResult> {
    try {
      return await this.unitOfWork.run(async (tx) => {
        // The entity may have gone, or its field filled up, while the bytes streamed.
        await this.owners.lockExisting(tx, owner, slot.attachmentId);
        if (field.multi) await this.assertRoomFor(field, slot, parts.length, tx.manager);
        const result = field.multi ? await this.append(tx, slot, parts) : await this.replace(tx, slot, parts[0]);
        const kind = result.created ? 'file.created' : 'file.updated';
        for (const file of result.records) {
          await this.events.publish(tx, { kind, data: { file: FileRecordDto.from(file) } });
        }
        await this.activity.record(tx, {
          action: result.created ? 'file.upload' : 'file.replace',
          principal,
          ...slot,
          fileIds: result.records.map((file) => file.id),
        });
        await inTransaction?.(tx);
        // Image variants are made in the background once the records are committed, within the uploader's share of
        // the queue; the answer does not wait.
        tx.afterCommit(() => Promise.resolve(this.variants.produceLater(result.records, principal.subject)));
        return result;
      });
    } catch (error) {
      // Nothing refers to these bytes once the transaction is gone.
      await Promise.allSettled(parts.map((part) => this.storage.delete(part.key)));
      throw error;
    }
  }

  /** 409 when a multi field with a maxCount cannot take `adding` more files. */
  async assertRoomFor(
    field: FileFieldDefinition,
    slot: FieldSlot,
    adding: number,
    manager?: EntityManager,
  ): Promise<void> {
    if (!field.multi || field.maxCount === undefined) return;
    const count = await this.fileRecords.countInField(slot, manager);
    if (count + adding > field.maxCount) {
      throw new FilesError(
        FilesErrorCode.FieldFull,
        `"${slot.field}" holds ${count} of at most ${field.maxCount} files; ${adding} more do not fit.`,
      );
    }
  }

  private async append(tx: Transaction, slot: FieldSlot, parts: StoredPart[]): Promise<UploadResult> {
    const count = await this.fileRecords.countInField(slot, tx.manager);
    const added = parts.map((part, index) => newRecord(slot, part, count + index));
    return { created: true, records: await this.fileRecords.insert(added, tx.manager) };
  }

  /** A single field keeps its record (and id) across uploads; only the file behind it changes. */
  private async replace(tx: Transaction, slot: FieldSlot, part: StoredPart): Promise<UploadResult> {
    const [existing] = await this.fileRecords.inField(slot, tx.manager);
    if (!existing) {
      return { created: true, records: await this.fileRecords.insert([newRecord(slot, part, 0)], tx.manager) };
    }
    const previousKeys = storedKeysOf(existing);
    const replaced = Object.assign(existing, newRecord(slot, part, existing.sortOrder));
    const saved = await this.fileRecords.save(replaced, tx.manager);
    tx.afterCommit(() => Promise.all(previousKeys.map((key) => this.storage.delete(key))));
    return { created: false, records: [saved] };
  }
}

function newRecord(slot: FieldSlot, part: StoredPart, sortOrder: number): NewFileRecord {
  return {
    ...slot,
    sortOrder,
    storageKey: part.key,
    originalName: part.originalName,
    mimeType: part.mimeType,
    size: part.size,
    checksumSha256: part.checksumSha256,
    width: part.image?.width ?? null,
    height: part.image?.height ?? null,
    variants: null,
  };
}
