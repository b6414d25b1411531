import { Injectable } from '@nestjs/common';
import { InjectEntityManager } from '@nestjs/typeorm';
import { In, IsNull, LessThan, LessThanOrEqual, Or, type EntityManager, type FindOptionsWhere } from 'typeorm';
import { UnitOfWork } from '../../../../database/unit-of-work.js';
import type { UnfinishedUploadStates } from '../storage/upload-states.js';
import { ResumableUpload } from './resumable-upload.entity.js';

export type NewResumableUpload = Omit<ResumableUpload, 'id' | 'leaseUntil' | 'leaseToken' | 'storageState'>;

/** What a lease holder writes back when it lets go of an upload. */
export type LeasedChanges = Partial<Pick<ResumableUpload, 'offset' | 'mimeType' | 'declaredLength' | 'expiresAt'>>;

/**
 * The queries on resumable uploads. Writes run in a unit of work: on SQLite its one connection may be inside another
 * caller's transaction, whose rollback must not take a lease or an offset with it.
 */
@Injectable()
export class ResumableUploadsRepository implements UnfinishedUploadStates {
  constructor(
    @InjectEntityManager() private readonly db: EntityManager,
    private readonly unitOfWork: UnitOfWork,
  ) {}

  /** In the given transaction (the admission's), or in a unit of work of its own. */
  insert(upload: NewResumableUpload, manager?: EntityManager): Promise<ResumableUpload> {
    const save = (m: EntityManager) =>
      m.save(m.create(ResumableUpload, { ...upload, leaseUntil: null, leaseToken: null, storageState: null }));
    return manager ? save(manager) : this.unitOfWork.run((tx) => save(tx.manager));
  }

  findByHash(idHash: string): Promise<ResumableUpload | null> {
    return this.db.findOneBy(ResumableUpload, { idHash });
  }

  /** Takes the upload for one request when no other holds it (or its lease ran out): an atomic compare-and-set. */
  takeLease(id: number, token: string, nowMs: number, untilMs: number): Promise<boolean> {
    return this.updated({ id, leaseUntil: Or(IsNull(), LessThan(nowMs)) }, { leaseToken: token, leaseUntil: untilMs });
  }

  /** Extends a lease this request still holds; false when it was lost. */
  renewLease(id: number, token: string, untilMs: number): Promise<boolean> {
    return this.updated({ id, leaseToken: token }, { leaseUntil: untilMs });
  }

  /** Writes the request's progress and frees the upload, only if the request still holds it. */
  release(id: number, token: string, changes: LeasedChanges): Promise<boolean> {
    return this.updated({ id, leaseToken: token }, { ...changes, leaseToken: null, leaseUntil: null });
  }

  async delete(id: number, manager?: EntityManager): Promise<void> {
    if (manager) await manager.delete(ResumableUpload, { id });
    else await this.unitOfWork.run(({ manager: m }) => m.delete(ResumableUpload, { id }));
  }

  /** Uploads past their expiry, or created before `bornBeforeMs` (their lifetime over), that no request holds. */
  expired(nowMs: number, limit: number, bornBeforeMs = -Infinity): Promise<ResumableUpload[]> {
    const free = Or(IsNull(), LessThan(nowMs));
    const where: FindOptionsWhere<ResumableUpload>[] = [{ expiresAt: LessThanOrEqual(nowMs), leaseUntil: free }];
    if (Number.isFinite(bornBeforeMs)) where.push({ createdAt: LessThanOrEqual(bornBeforeMs), leaseUntil: free });
    return this.db.find(ResumableUpload, { where, order: { expiresAt: 'ASC' }, take: limit });
  }

  /** Which of these storage keys belong to an upload under way. */
  async existingStorageKeys(keys: readonly string[]): Promise<Set<string>> {
    if (keys.length === 0) return new Set();
    const rows = await this.db.find(ResumableUpload, {
      select: { storageKey: true },
      where: { storageKey: In([...keys]) },
    });
    return new Set(rows.map((row) => row.storageKey));
  }

  async storageState(storageKey: string): Promise<string | null> {
    const row = await this.db.findOne(ResumableUpload, { select: { storageState: true }, where: { storageKey } });
    return row?.storageState ?? null;
  }

  swapStorageState(storageKey: string, expected: string | null, next: string): Promise<boolean> {
    return this.updated({ storageKey, storageState: expected ?? IsNull() }, { storageState: next });
  }

  private updated(where: object, set: object): Promise<boolean> {
    return this.unitOfWork.run(async ({ manager }) => {
      const result = await manager.update(ResumableUpload, where, set);
      return result.affected === 1;
    });
  }
}
