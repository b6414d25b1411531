import { Injectable } from '@nestjs/common';
import { InjectEntityManager } from '@nestjs/typeorm';
import { In, type EntityManager } from 'typeorm';
import { LeanSelect } from '../database/lean-select.js';
import { FileRecord } from './file-record.entity.js';
import { originalKeyOf, storedKeysOf } from './images/variant-state.js';

/** One file field of one entity. */
export interface FieldSlot {
  attachmentType: string;
  attachmentId: number;
  field: string;
}

/** What an upload stores: everything of a record but what the database assigns. */
export type NewFileRecord = Omit<FileRecord, 'id' | 'createdAt' | 'updatedAt'>;

/** A file record read for a response: its values, not a FileRecord instance. */
export type FileRecordRow = Pick<FileRecord, keyof FileRecord>;

/** Where a record sits: its entity's field, and its position there. */
export type RecordSlot = FieldSlot & Pick<FileRecord, 'sortOrder'>;

/**
 * A record as the owners' query returns it: its slot as the entity has it, its other columns as the driver gave them,
 * unconverted until {@link FileRecordsRepository.hydrate}.
 */
export type StoredFileRow = RecordSlot & Pick<FileRecord, 'id'>;

/** The parts of the owners' query that never change, escaped once. */
export class OwnerQuery {
  readonly type: string;
  readonly id: string;

  constructor(readonly select: LeanSelect<FileRecordRow>) {
    this.type = select.column('attachmentType');
    this.id = select.column('attachmentId');
  }
}

/** By entity, field and position: the order of the slot index, in which findForOwners returns records. */
export function bySlot(a: RecordSlot, b: RecordSlot): number {
  if (a.attachmentType !== b.attachmentType) return a.attachmentType < b.attachmentType ? -1 : 1;
  if (a.attachmentId !== b.attachmentId) return a.attachmentId - b.attachmentId;
  if (a.field !== b.field) return a.field < b.field ? -1 : 1;
  return a.sortOrder - b.sortOrder;
}

/** The queries on file records; methods given a manager run in its transaction. */
@Injectable()
export class FileRecordsRepository {
  private leanOnce?: OwnerQuery;

  constructor(@InjectEntityManager() private readonly db: EntityManager) {}

  /** Built on first use, once the DataSource is ready. */
  private get lean(): OwnerQuery {
    return (this.leanOnce ??= new OwnerQuery(new LeanSelect(this.db.connection, FileRecord)));
  }

  /**
   * Every record of the given entities, in one query, ordered by entity, field and position, for the resolution of
   * every response: rows as the driver returns them (see {@link hydrate} and {@link sameRow}), so that what a
   * response shows of a record it has shown before is taken from a cache without converting the row again.
   *
   * Sorted here rather than by an ORDER BY: SQLite walks the slot index either way, yet the ORDER BY made the query
   * take 2.3 times as long (20 µs against 9 for 11 rows; 125 µs a request under load), and a few rows sort in
   * about a microsecond.
   */
  async findForOwners(owners: ReadonlyMap<string, readonly number[]>): Promise<StoredFileRow[]> {
    const lean = this.lean;
    const conditions: string[] = [];
    const parameters: unknown[] = [];
    for (const [type, ids] of owners) {
      if (ids.length === 0) continue;
      const typeIs = `${lean.type} = ${lean.select.parameter(parameters.length)}`;
      parameters.push(type);
      conditions.push(`(${typeIs} AND ${lean.select.oneOf(lean.id, ids, parameters)})`);
    }
    if (conditions.length === 0) return [];
    const rows = await lean.select.raw(`${lean.select.selectFrom} WHERE ${conditions.join(' OR ')}`, parameters);
    return (rows as unknown as StoredFileRow[]).sort(bySlot);
  }

  /** The record's values, converted in place from a row of {@link findForOwners}. */
  hydrate(row: StoredFileRow): FileRecordRow {
    return this.lean.select.hydrate(row as unknown as Record<string, unknown>);
  }

  /** The owners' query's select and owner columns: also the file side of a joint read (see JointFileReads). */
  ownerQuery(): OwnerQuery {
    return this.lean;
  }

  /** A row of {@link findForOwners}, or of a joint read, copied without the statement's other columns. */
  copyRow(row: StoredFileRow): StoredFileRow {
    return this.lean.select.copyRow(row as unknown as Record<string, unknown>) as unknown as StoredFileRow;
  }

  /** Whether two rows of {@link findForOwners} hold the same values (see LeanSelect.sameRow). */
  sameRow(a: StoredFileRow, b: StoredFileRow): boolean {
    return this.lean.select.sameRow(a as unknown as Record<string, unknown>, b as unknown as Record<string, unknown>);
  }

  /** Which of these storage keys belong to a record: as its file, or as one of its image variants. */
  async existingStorageKeys(keys: readonly string[]): Promise<Set<string>> {
    if (keys.length === 0) return new Set();
    const rows = await this.db.find(FileRecord, {
      select: { storageKey: true, variants: true },
      where: { storageKey: In([...new Set(keys.map(originalKeyOf))]) },
    });
    const referenced = new Set(rows.flatMap(storedKeysOf));
    return new Set(keys.filter((key) => referenced.has(key)));
  }

  findById(id: number, manager: EntityManager = this.db): Promise<FileRecord | null> {
    return manager.findOneBy(FileRecord, { id });
  }

  /** The field's records by position. */
  inField(slot: FieldSlot, manager: EntityManager = this.db): Promise<FileRecord[]> {
    return manager.find(FileRecord, { where: { ...slot }, order: { sortOrder: 'ASC' } });
  }

  countInField(slot: FieldSlot, manager: EntityManager = this.db): Promise<number> {
    return manager.count(FileRecord, { where: { ...slot } });
  }

  /** Every record of one entity, whatever its field. */
  ofOwner(attachmentType: string, attachmentId: number, manager: EntityManager = this.db): Promise<FileRecord[]> {
    return manager.find(FileRecord, { where: { attachmentType, attachmentId } });
  }

  /** Inserts the records in the given order and returns them as stored. */
  insert(records: readonly NewFileRecord[], manager: EntityManager = this.db): Promise<FileRecord[]> {
    return manager.save(records.map((record) => manager.create(FileRecord, record)));
  }

  /** Writes a changed record back and returns it as stored. */
  save(record: FileRecord, manager: EntityManager = this.db): Promise<FileRecord> {
    return manager.save(record);
  }

  async setSortOrder(id: number, sortOrder: number, manager: EntityManager = this.db): Promise<void> {
    await manager.update(FileRecord, { id }, { sortOrder });
  }

  async delete(id: number, manager: EntityManager = this.db): Promise<void> {
    await manager.delete(FileRecord, { id });
  }

  /** Removes through the entity manager, so that TypeORM subscribers see each removal. */
  async remove(records: readonly FileRecord[], manager: EntityManager = this.db): Promise<void> {
    await manager.remove([...records]);
  }
}
