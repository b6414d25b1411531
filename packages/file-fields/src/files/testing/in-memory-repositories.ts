import { copyRow as copy, type Public } from '../../common/testing/fakes.js';
import type { AttachmentOwnersRepository } from '../fields/attachment-owners.repository.js';
import type { AttachableEntity } from '../fields/file-field.registry.js';
import { FileRecord } from '../records/file-record.entity.js';
import {
  bySlot,
  type FieldSlot,
  type FileRecordsRepository,
  type NewFileRecord,
} from '../records/file-records.repository.js';
import { storedKeysOf } from '../records/variant-state.js';

// Re-exported so a spec takes all its fakes from its own module.
export { asReal, FakeUnitOfWork } from '../../common/testing/fakes.js';

/* eslint-disable @typescript-eslint/require-await -- the fakes answer at once, with the repositories' signatures */

/*
 * In-memory stand-ins for the files module's repositories, for unit specs (no database). They hand out copies, as a
 * database does, and keep the unique (field, sort_order) index, so a change that passes through a state the real
 * table refuses fails here too.
 */

const inSlot = (slot: FieldSlot) => (row: FileRecord) =>
  row.attachmentType === slot.attachmentType && row.attachmentId === slot.attachmentId && row.field === slot.field;

export class FakeFileRecordsRepository implements Public<FileRecordsRepository> {
  readonly rows: FileRecord[] = [];
  private nextId = 1;

  /** A stored record of the slot at the position, with made-up file details unless told otherwise. */
  add(slot: FieldSlot, sortOrder: number, fields: Partial<NewFileRecord> = {}): FileRecord {
    const id = this.nextId++;
    const row = Object.assign(new FileRecord(), {
      ...{ ...slot, sortOrder, storageKey: `${slot.attachmentType}/${slot.attachmentId}/stored-${id}` },
      ...{ originalName: `${id}.png`, mimeType: 'image/png', size: 1, checksumSha256: '0'.repeat(64) },
      ...{ width: null, height: null, variants: null },
      ...{ createdAt: new Date(0), updatedAt: new Date(0) },
      ...fields,
      id,
    });
    this.assertUniqueSlot(row);
    this.rows.push(row);
    return copy(row);
  }

  byId(id: number): FileRecord {
    const row = this.rows.find((record) => record.id === id);
    if (!row) throw new Error(`No file record ${id}`);
    return row;
  }

  /** The ids of a field's records by position. */
  idsInField(slot: FieldSlot): number[] {
    return this.rows
      .filter(inSlot(slot))
      .sort((a, b) => a.sortOrder - b.sortOrder)
      .map((row) => row.id);
  }

  findForOwners = async (owners: ReadonlyMap<string, readonly number[]>) =>
    this.rows
      .filter((row) => owners.get(row.attachmentType)?.includes(row.attachmentId))
      .sort(bySlot)
      .map(copy);
  existingStorageKeys = async (keys: readonly string[]) =>
    new Set(this.rows.flatMap(storedKeysOf).filter((key) => keys.includes(key)));
  findById = async (id: number) => {
    const row = this.rows.find((record) => record.id === id);
    return row ? copy(row) : null;
  };
  inField = async (slot: FieldSlot) =>
    this.rows
      .filter(inSlot(slot))
      .sort((a, b) => a.sortOrder - b.sortOrder)
      .map(copy);
  countInField = async (slot: FieldSlot) => this.rows.filter(inSlot(slot)).length;
  ofOwner = async (attachmentType: string, attachmentId: number) =>
    this.rows.filter((row) => row.attachmentType === attachmentType && row.attachmentId === attachmentId).map(copy);
  insert = async (records: readonly NewFileRecord[]) =>
    records.map((record) => this.add(record, record.sortOrder, record));
  save = async (record: FileRecord) => {
    const row = this.byId(record.id);
    this.assertUniqueSlot(record);
    Object.assign(row, copy(record), { updatedAt: new Date(1) });
    return copy(row);
  };
  setSortOrder = async (id: number, sortOrder: number) => {
    const row = this.byId(id);
    this.assertUniqueSlot({ ...row, sortOrder });
    row.sortOrder = sortOrder;
  };
  delete = async (id: number) => {
    const index = this.rows.findIndex((row) => row.id === id);
    if (index >= 0) this.rows.splice(index, 1);
  };
  remove = async (records: readonly FileRecord[]) => {
    for (const record of records) await this.delete(record.id);
  };

  private assertUniqueSlot(record: FileRecord): void {
    const taken = this.rows.some(
      (row) => row.id !== record.id && inSlot(record)(row) && row.sortOrder === record.sortOrder,
    );
    if (taken) throw new Error(`UNIQUE constraint failed: uq_file_records_slot (position ${record.sortOrder})`);
  }
}

/** The entities files are attached to, as `type:id`. */
export class FakeAttachmentOwnersRepository implements Public<AttachmentOwnersRepository> {
  readonly existing = new Set<string>();
  /** Every lock taken, as `type:id`. */
  readonly locked: string[] = [];

  add(type: string, id: number): void {
    this.existing.add(`${type}:${id}`);
  }

  remove(type: string, id: number): void {
    this.existing.delete(`${type}:${id}`);
  }

  exists = async (owner: AttachableEntity, id: number) => this.existing.has(`${owner.type}:${id}`);
  lock = async (_tx: unknown, owner: AttachableEntity, id: number) => {
    this.locked.push(`${owner.type}:${id}`);
    return this.existing.has(`${owner.type}:${id}`);
  };
}
