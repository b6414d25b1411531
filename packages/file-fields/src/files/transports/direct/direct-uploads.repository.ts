import { Injectable } from '@nestjs/common';
import { InjectEntityManager } from '@nestjs/typeorm';
import { IsNull, LessThanOrEqual, Or, type EntityManager } from 'typeorm';
import { DirectUpload } from './direct-upload.entity.js';

export type NewDirectUpload = Omit<DirectUpload, 'id' | 'completingAt'>;

/** The queries on direct uploads; methods given a manager run in its transaction. */
@Injectable()
export class DirectUploadsRepository {
  constructor(@InjectEntityManager() private readonly db: EntityManager) {}

  insert(upload: NewDirectUpload, manager: EntityManager = this.db): Promise<DirectUpload> {
    return manager.save(manager.create(DirectUpload, { ...upload, completingAt: null }));
  }

  findByHash(idHash: string): Promise<DirectUpload | null> {
    return this.db.findOneBy(DirectUpload, { idHash });
  }

  /**
   * Marks the upload as being completed, unless a request already does: one conditional UPDATE, so of two
   * concurrent completions exactly one gets true, on SQLite and PostgreSQL alike.
   */
  async claim(id: number, now: number): Promise<boolean> {
    const result = await this.db.update(DirectUpload, { id, completingAt: IsNull() }, { completingAt: now });
    return result.affected === 1;
  }

  /** Lets another request complete the upload (after a failure it may retry). */
  async release(id: number): Promise<void> {
    await this.db.update(DirectUpload, { id }, { completingAt: null });
  }

  async delete(id: number, manager: EntityManager = this.db): Promise<void> {
    await manager.delete(DirectUpload, { id });
  }

  /** Uploads whose time ran out and whose completion, if one started, started before `completingBefore`; oldest first. */
  expired(now: number, limit: number, completingBefore: number): Promise<DirectUpload[]> {
    return this.db.find(DirectUpload, {
      where: { expiresAt: LessThanOrEqual(now), completingAt: Or(IsNull(), LessThanOrEqual(completingBefore)) },
      order: { expiresAt: 'ASC' },
      take: limit,
    });
  }
}
