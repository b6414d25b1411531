import { Injectable, Optional } from '@nestjs/common';
import { UnitOfWork, type Transaction } from '../../database/unit-of-work.js';
import type { Principal } from '../../auth/principal.js';
import type { ResolvedField } from '../fields/attachment-owners.js';
import { AttachmentOwners } from '../fields/attachment-owners.js';
import { FileRecordDto } from '../records/file-record.dto.js';
import type { FileRecord } from '../records/file-record.entity.js';
import { FileRecordsRepository, type FieldSlot, type NewFileRecord } from '../records/file-records.repository.js';
import { FileEventPublisher } from '../events/file-event-publisher.js';
import { FileActivityLog, NoFileActivityLog } from '../events/file-activity-log.js';
import { FileStorage } from '../../storage/file-storage.js';
import { FieldAdmission } from '../intake/admission/field-admission.js';
import type { StoredPart } from '../intake/inspection/upload-inspection.js';
import { FileVariants } from '../images/variants/file-variants.service.js';
import { storedKeysOf } from '../records/variant-state.js';

export interface UploadResult {
  /** true when records were added (201), false when a single field's record was replaced (200). */
  created: boolean;
  records: FileRecord[];
}

/**
 * Attaches stored files to entity fields: where every upload ends, whichever transport brought its bytes (multipart,
 * tus, the IETF draft, direct to S3).
 */
@Injectable()
export class FilesService {
  constructor(
    private readonly owners: AttachmentOwners,
    private readonly admission: FieldAdmission,
    private readonly fileRecords: FileRecordsRepository,
    private readonly storage: FileStorage,
    private readonly unitOfWork: UnitOfWork,
    private readonly events: FileEventPublisher,
    private readonly variants: FileVariants,
    @Optional() private readonly activity: FileActivityLog = new NoFileActivityLog(),
  ) {}

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
        if (field.multi) await this.admission.assertRoomFor(field, slot, parts.length, tx.manager);
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
