import { Injectable } from '@nestjs/common';
import { InjectEntityManager } from '@nestjs/typeorm';
import { Brackets, In, type EntityManager } from 'typeorm';
import { FileRecord } from './file-record.entity.js';

/** One file field of one entity. */
export interface FieldSlot {
  attachmentType: string;
  attachmentId: number;
  field: string;
}

/** What an upload stores: everything of a record but what the database assigns. */
export type NewFileRecord = Omit<FileRecord, 'id' | 'createdAt' | 'updatedAt'>;

/** The queries on file records; methods given a manager run in its transaction. */
@Injectable()
export class FileRecordsRepository {
  constructor(@InjectEntityManager() private readonly db: EntityManager) {}

  /** Every record of the given entities, in one query, ordered by entity, field and position. */
  async findForOwners(owners: ReadonlyMap<string, readonly number[]>): Promise<FileRecord[]> {
    const query = this.db.createQueryBuilder(FileRecord, 'f');
    let index = 0;
    for (const [type, ids] of owners) {
      if (ids.length === 0) continue;
      const t = `t${index}`;
      const i = `i${index++}`;
      query.orWhere(
        new Brackets((q) =>
          q.where(`f.attachment_type = :${t}`, { [t]: type }).andWhere(`f.attachment_id IN (:...${i})`, { [i]: ids }),
        ),
      );
    }
    if (index === 0) return [];
    return query
      .orderBy('f.attachment_type')
      .addOrderBy('f.attachment_id')
      .addOrderBy('f.field')
      .addOrderBy('f.sort_order')
      .getMany();
  }

  /** Which of these storage keys belong to a record. */
  async existingStorageKeys(keys: readonly string[]): Promise<Set<string>> {
    if (keys.length === 0) return new Set();
    const rows = await this.db.find(FileRecord, {
      select: { storageKey: true },
      where: { storageKey: In([...keys]) },
    });
    return new Set(rows.map((row) => row.storageKey));
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
