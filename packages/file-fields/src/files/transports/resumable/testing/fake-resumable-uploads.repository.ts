import { copyRow, type Public } from '../../../../common/testing/fakes.js';
import { ResumableUpload } from '../state/resumable-upload.entity.js';
import type {
  LeasedChanges,
  NewResumableUpload,
  ResumableUploadsRepository,
} from '../state/resumable-uploads.repository.js';

/* eslint-disable @typescript-eslint/require-await -- answers at once, with the repository's signatures */

/** An in-memory resumable_uploads table for unit specs, with the lease's compare-and-set semantics. */
export class FakeResumableUploadsRepository implements Public<ResumableUploadsRepository> {
  readonly rows = new Map<number, ResumableUpload>();
  private nextId = 1;

  async insert(upload: NewResumableUpload): Promise<ResumableUpload> {
    const row = Object.assign(new ResumableUpload(), {
      ...upload,
      id: this.nextId++,
      leaseUntil: null,
      leaseToken: null,
      storageState: null,
    });
    this.rows.set(row.id, row);
    return copyRow(row);
  }

  async findByHash(idHash: string): Promise<ResumableUpload | null> {
    const row = [...this.rows.values()].find((candidate) => candidate.idHash === idHash);
    return row ? copyRow(row) : null;
  }

  async takeLease(id: number, token: string, nowMs: number, untilMs: number): Promise<boolean> {
    const row = this.rows.get(id);
    if (!row || (row.leaseUntil !== null && row.leaseUntil >= nowMs)) return false;
    Object.assign(row, { leaseToken: token, leaseUntil: untilMs });
    return true;
  }

  async renewLease(id: number, token: string, untilMs: number): Promise<boolean> {
    const row = this.rows.get(id);
    if (row?.leaseToken !== token) return false;
    row.leaseUntil = untilMs;
    return true;
  }

  async release(id: number, token: string, changes: LeasedChanges): Promise<boolean> {
    const row = this.rows.get(id);
    if (row?.leaseToken !== token) return false;
    Object.assign(row, changes, { leaseToken: null, leaseUntil: null });
    return true;
  }

  async delete(id: number): Promise<void> {
    this.rows.delete(id);
  }

  async expired(nowMs: number, limit: number, bornBeforeMs = -Infinity): Promise<ResumableUpload[]> {
    return [...this.rows.values()]
      .filter((row) => row.expiresAt <= nowMs || row.createdAt <= bornBeforeMs)
      .filter((row) => row.leaseUntil === null || row.leaseUntil < nowMs)
      .slice(0, limit)
      .map(copyRow);
  }

  async storageState(storageKey: string): Promise<string | null> {
    return [...this.rows.values()].find((row) => row.storageKey === storageKey)?.storageState ?? null;
  }

  async swapStorageState(storageKey: string, expected: string | null, next: string): Promise<boolean> {
    const row = [...this.rows.values()].find((candidate) => candidate.storageKey === storageKey);
    if (!row || row.storageState !== expected) return false;
    row.storageState = next;
    return true;
  }

  async existingStorageKeys(keys: readonly string[]): Promise<Set<string>> {
    const live = new Set([...this.rows.values()].map((row) => row.storageKey));
    return new Set(keys.filter((key) => live.has(key)));
  }
}
