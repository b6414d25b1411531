import { Injectable, Optional } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { Principal } from '../../auth/principal.js';
import { UnitOfWork, type Transaction } from '../../database/unit-of-work.js';
import { AttachmentOwners } from '../fields/attachment-owners.js';
import { assertMayWrite, fileNotFound } from '../access/file-access.js';
import { FileRecordDto } from '../records/file-record.dto.js';
import { FileFieldRegistry } from '../fields/file-field.registry.js';
import type { FileRecord } from '../records/file-record.entity.js';
import { FileRecordsRepository, type FieldSlot } from '../records/file-records.repository.js';
import { FilesError, FilesErrorCode } from '../../errors/files.errors.js';
import { FileStorage } from '../../storage/file-storage.js';
import { FileEventPublisher } from '../events/file-event-publisher.js';
import { FileActivityLog, NoFileActivityLog } from '../events/file-activity-log.js';
import { storedKeysOf } from '../records/variant-state.js';

/** Deletes and reorders the files of a field; positions stay 0..n-1 after every change. */
@Injectable()
export class FileChangesService {
  constructor(
    private readonly registry: FileFieldRegistry,
    private readonly owners: AttachmentOwners,
    private readonly fileRecords: FileRecordsRepository,
    private readonly storage: FileStorage,
    private readonly unitOfWork: UnitOfWork,
    private readonly events: FileEventPublisher,
    @Optional() private readonly activity: FileActivityLog = new NoFileActivityLog(),
  ) {}

  /**
   * Removes a file record, closes the gap in its field in the same transaction, and its bytes after commit. The
   * principal needs `<attachment type>:write` of the record (see assertMayWrite).
   */
  async delete(principal: Principal, id: number): Promise<FileRecord> {
    return this.unitOfWork.run(async (tx) => {
      const removed = await this.lockedRecord(tx, principal, id);
      await this.fileRecords.delete(id, tx.manager);
      await this.closeGap(slotOf(removed), tx.manager);
      await this.events.publish(tx, { kind: 'file.deleted', data: { file: FileRecordDto.from(removed) } });
      await this.activity.record(tx, { action: 'file.delete', principal, ...slotOf(removed), fileIds: [id] });
      tx.afterCommit(() => Promise.all(storedKeysOf(removed).map((key) => this.storage.delete(key))));
      return removed;
    });
  }

  /** Puts a multi field's files in the given order; `ids` must name exactly the field's current files. */
  async reorder(
    principal: Principal,
    attachmentType: string,
    attachmentId: number,
    fieldName: string,
    ids: number[],
  ): Promise<FileRecord[]> {
    const { owner, field, slot } = this.owners.resolveField(attachmentType, attachmentId, fieldName);
    if (!field.multi)
      throw new FilesError(FilesErrorCode.NotMultiField, `"${fieldName}" holds one file; it has no order.`);
    return this.unitOfWork.run(async (tx) => {
      await this.owners.lockExisting(tx, owner, attachmentId);
      const current = await this.fileRecords.inField(slot, tx.manager);
      assertSameFiles(current, ids);
      const byId = new Map(current.map((file) => [file.id, file]));
      // Two passes, so that no intermediate state breaks the unique (field, sort_order) index.
      for (const [index, id] of ids.entries()) await this.fileRecords.setSortOrder(id, -1 - index, tx.manager);
      for (const [index, id] of ids.entries()) await this.fileRecords.setSortOrder(id, index, tx.manager);
      const reordered = ids.map((id, index) => Object.assign(byId.get(id)!, { sortOrder: index }));
      const files = reordered.map((file) => FileRecordDto.from(file));
      const data = { attachment_type: attachmentType, attachment_id: attachmentId, field: fieldName, files };
      await this.events.publish(tx, { kind: 'file.reordered', data });
      await this.activity.record(tx, { action: 'file.reorder', principal, ...slot, fileIds: ids });
      return reordered;
    });
  }

  private async lockedRecord(tx: Transaction, principal: Principal, id: number): Promise<FileRecord> {
    const found = assertMayWrite(principal, await this.fileRecords.findById(id, tx.manager), id);
    const owner = this.registry.get(found.attachmentType);
    // The file goes even when its entity is gone; the lock only keeps other changes to the field out meanwhile.
    if (owner) await this.owners.lock(tx, owner, found.attachmentId);
    // Read again under the lock: a concurrent change may have moved or removed it meanwhile.
    // A record's attachment type never changes, so the permission checked above still holds.
    const record = await this.fileRecords.findById(id, tx.manager);
    if (!record) throw fileNotFound(id);
    return record;
  }

  /** Moves the files after a removed one up by one, in order, so that each lands on a free position. */
  private async closeGap(slot: FieldSlot, manager: EntityManager): Promise<void> {
    const rest = await this.fileRecords.inField(slot, manager);
    for (const [index, file] of rest.entries()) {
      if (file.sortOrder !== index) await this.fileRecords.setSortOrder(file.id, index, manager);
    }
  }
}

function slotOf(record: FileRecord): FieldSlot {
  return { attachmentType: record.attachmentType, attachmentId: record.attachmentId, field: record.field };
}

function assertSameFiles(current: FileRecord[], ids: number[]): void {
  const expected = current.map((file) => file.id).sort((a, b) => a - b);
  const given = [...ids].sort((a, b) => a - b);
  if (expected.length !== given.length || expected.some((id, i) => id !== given[i])) {
    throw new FilesError(
      FilesErrorCode.OrderMismatch,
      `The order must name exactly the field's current files: [${expected.join(', ')}].`,
    );
  }
}
