import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Brackets, In, Repository, type EntityManager } from 'typeorm';
import { FileRecord } from './file-record.entity.js';

/** One file field of one entity. */
export interface FieldSlot {
  attachmentType: string;
  attachmentId: number;
  field: string;
}

/** The queries on file records; writes take the transaction's manager. */
@Injectable()
export class FileRecordsRepository {
  constructor(@InjectRepository(FileRecord) private readonly records: Repository<FileRecord>) {}

  /** Every record of the given entities, in one query, ordered by entity, field and position. */
  async findForOwners(owners: ReadonlyMap<string, readonly number[]>): Promise<FileRecord[]> {
    const query = this.records.createQueryBuilder('f');
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
  async existingPaths(paths: readonly string[]): Promise<Set<string>> {
    if (paths.length === 0) return new Set();
    const rows = await this.records.find({ select: { path: true }, where: { path: In([...paths]) } });
    return new Set(rows.map((row) => row.path));
  }

  async findById(id: number): Promise<FileRecord | null> {
    return this.records.findOneBy({ id });
  }

  inField(manager: EntityManager, slot: FieldSlot): Promise<FileRecord[]> {
    return manager.find(FileRecord, { where: { ...slot }, order: { sortOrder: 'ASC' } });
  }

  ofEntity(manager: EntityManager, attachmentType: string, attachmentId: number): Promise<FileRecord[]> {
    return manager.find(FileRecord, { where: { attachmentType, attachmentId } });
  }
}
