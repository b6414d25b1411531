import { Injectable } from '@nestjs/common';
import { InjectEntityManager } from '@nestjs/typeorm';
import { In, type EntityManager } from 'typeorm';
import { EntityReader } from '../../database/list-page.js';
import { FileRecord } from './file-record.entity.js';
import { originalKeyOf, storedKeysOf } from './variant-state.js';

/** One file field of one entity. */
export interface FieldSlot {
  attachmentType: string;
  attachmentId: number;
  field: string;
}

/** What an upload stores: everything of a record but what the database assigns. */
export type NewFileRecord = Omit<FileRecord, 'id' | 'createdAt' | 'updatedAt'>;

/** A file record's values, as a response shows them (a FileRecord instance or a copy). */
export type FileRecordRow = Pick<FileRecord, keyof FileRecord>;

/** The queries on file records; methods given a manager run in its transaction. */
@Injectable()
export class FileRecordsRepository {
  constructor(@InjectEntityManager() private readonly db: EntityManager) {}

  /**
   * Every record of the given entities (ids by attachment type), in one query, ordered by entity, field and position
   * (the slot index's order): for the resolution of a response's file fields.
   */
  async findForOwners(owners: ReadonlyMap<string, readonly number[]>): Promise<FileRecord[]> {
    const wanted = [...owners].filter(([, ids]) => ids.length > 0);
    if (wanted.length === 0) return [];
    // One statement per count of types and ids (see EntityReader): the values are each type followed by its ids.
    const shape = wanted.map(([, ids]) => ids.length).join(' ');
    const values = wanted.flatMap(([type, ids]) => [type, ...ids]);
    const repository = this.db.getRepository(FileRecord);
    const records = await EntityReader.of(repository).many(shape, values, (placeholders) => {
      const builder = repository.createQueryBuilder(EntityReader.ALIAS);
      let at = 0;
      wanted.forEach(([, ids], index) => {
        const type = placeholders[at];
        const some = placeholders.slice(at + 1, (at += 1 + ids.length));
        builder.orWhere(`(row.attachmentType = :type${index} AND row.attachmentId IN (:...ids${index}))`, {
          [`type${index}`]: type,
          [`ids${index}`]: some,
        });
      });
      return builder;
    });
    // Sorted here: an ORDER BY over an IN list makes SQLite order the list's rows, which costs more than this sort.
    return records.sort(bySlot);
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

/** By entity, field and position: the order of a response's file records. */
export function bySlot(a: FileRecord, b: FileRecord): number {
  if (a.attachmentType !== b.attachmentType) return a.attachmentType < b.attachmentType ? -1 : 1;
  if (a.attachmentId !== b.attachmentId) return a.attachmentId - b.attachmentId;
  if (a.field !== b.field) return a.field < b.field ? -1 : 1;
  return a.sortOrder - b.sortOrder;
}
