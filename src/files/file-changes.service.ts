import { Injectable } from '@nestjs/common';
import { MoreThan, type EntityManager } from 'typeorm';
import type { Principal } from '../common/auth/principal.js';
import { UnitOfWork, type Transaction } from '../database/unit-of-work.js';
import { AttachmentOwners } from './attachment-owners.js';
import { assertMayWrite, fileNotFound } from './file-access.js';
import { FileRecordDto } from './file-record.dto.js';
import { FileFieldRegistry } from './file-field.registry.js';
import { FileRecord } from './file-record.entity.js';
import { FileRecordsRepository, type FieldSlot } from './file-records.repository.js';
import { FilesError, FilesErrorCode } from './files.errors.js';
import { FileEventPublisher } from './events/file-event-publisher.js';
import { FileStorage } from './storage/file-storage.js';

/** Deletes and reorders the files of a field; positions stay 0..n-1 after every change. */
@Injectable()
export class FileChangesService {
  constructor(
    private readonly registry: FileFieldRegistry,
    private readonly owners: AttachmentOwners,
    private readonly records: FileRecordsRepository,
    private readonly storage: FileStorage,
    private readonly unitOfWork: UnitOfWork,
    private readonly events: FileEventPublisher,
  ) {}

  /**
   * Removes a record, closes the gap in its field in the same transaction, and its bytes after commit. The principal
   * needs `<attachment type>:write` of the record (see assertMayWrite).
   */
  async delete(principal: Principal, id: number): Promise<FileRecord> {
    return this.unitOfWork.run(async (tx) => {
      const record = await this.lockedRecord(tx, principal, id);
      const removed = { ...record };
      await tx.manager.delete(FileRecord, { id });
      await this.closeGap(tx.manager, slotOf(record), record.sortOrder);
      await this.events.publish(tx, { kind: 'file.deleted', data: { file: FileRecordDto.from(record) } });
      tx.afterCommit(() => this.storage.delete(record.path));
      return Object.assign(new FileRecord(), removed);
    });
  }

  /** Puts a multi field's files in the given order; `ids` must name exactly the field's current files. */
  async reorder(attachmentType: string, attachmentId: number, fieldName: string, ids: number[]): Promise<FileRecord[]> {
    const { owner, field, slot } = this.owners.resolveField(attachmentType, attachmentId, fieldName);
    if (!field.multi)
      throw new FilesError(FilesErrorCode.NotMultiField, `"${fieldName}" holds one file; it has no order.`);
    return this.unitOfWork.run(async (tx) => {
      await this.owners.assertExists(tx.manager, owner, attachmentId, tx.supportsRowLocks);
      const current = await this.records.inField(tx.manager, slot);
      assertSameFiles(current, ids);
      const byId = new Map(current.map((record) => [record.id, record]));
      // Two passes, so that no intermediate state breaks the unique (field, sort_order) index.
      for (const [index, id] of ids.entries()) await tx.manager.update(FileRecord, { id }, { sortOrder: -1 - index });
      for (const [index, id] of ids.entries()) await tx.manager.update(FileRecord, { id }, { sortOrder: index });
      const reordered = ids.map((id, index) => Object.assign(byId.get(id)!, { sortOrder: index }));
      const files = reordered.map((record) => FileRecordDto.from(record));
      const data = { attachment_type: attachmentType, attachment_id: attachmentId, field: fieldName, files };
      await this.events.publish(tx, { kind: 'file.reordered', data });
      return reordered;
    });
  }

  private async lockedRecord(tx: Transaction, principal: Principal, id: number): Promise<FileRecord> {
    const found = assertMayWrite(principal, await tx.manager.findOneBy(FileRecord, { id }), id);
    const owner = this.registry.get(found.attachmentType);
    if (owner && tx.supportsRowLocks) await this.owners.assertExists(tx.manager, owner, found.attachmentId, true);
    // Read again under the lock: a concurrent change may have moved or removed it meanwhile.
    // A record's attachment type never changes, so the permission checked above still holds.
    const record = await tx.manager.findOneBy(FileRecord, { id });
    if (!record) throw fileNotFound(id);
    return record;
  }

  private async closeGap(manager: EntityManager, slot: FieldSlot, removedPosition: number): Promise<void> {
    const later = await manager.find(FileRecord, {
      where: { ...slot, sortOrder: MoreThan(removedPosition) },
      order: { sortOrder: 'ASC' },
    });
    for (const record of later)
      await manager.update(FileRecord, { id: record.id }, { sortOrder: record.sortOrder - 1 });
  }
}

function slotOf(record: FileRecord): FieldSlot {
  return { attachmentType: record.attachmentType, attachmentId: record.attachmentId, field: record.field };
}

function assertSameFiles(current: FileRecord[], ids: number[]): void {
  const expected = current.map((record) => record.id).sort((a, b) => a - b);
  const given = [...ids].sort((a, b) => a - b);
  if (expected.length !== given.length || expected.some((id, i) => id !== given[i])) {
    throw new FilesError(
      FilesErrorCode.OrderMismatch,
      `The order must name exactly the field's current files: [${expected.join(', ')}].`,
    );
  }
}
