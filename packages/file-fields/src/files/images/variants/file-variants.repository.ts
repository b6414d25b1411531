import { Injectable } from '@nestjs/common';
import type { Transaction } from '../../../database/unit-of-work.js';
import { FileRecord } from '../../records/file-record.entity.js';
import type { VariantStates } from '../../records/variant-state.js';

/** The queries on the `variants` column of file records. */
@Injectable()
export class FileVariantsRepository {
  /**
   * The record, locked until the transaction ends (a row lock on PostgreSQL; SQLite runs one transaction at a time),
   * so that two variants recorded at once (by two instances) do not overwrite each other's.
   */
  lockedRecord(id: number, tx: Transaction): Promise<FileRecord | null> {
    const lock = tx.supportsRowLocks ? { lock: { mode: 'pessimistic_write' as const } } : {};
    return tx.manager.findOne(FileRecord, { where: { id }, ...lock });
  }

  /** Writes a record's variants and nothing else: `updated_at` stays, as the file itself did not change. */
  async setVariants(id: number, variants: VariantStates, tx: Transaction): Promise<void> {
    const updatedAt = tx.manager.connection.driver.escape('updated_at');
    await tx.manager
      .createQueryBuilder()
      .update(FileRecord)
      .set({ variants: () => ':variants', updatedAt: () => updatedAt })
      .setParameter('variants', JSON.stringify(variants))
      .where({ id })
      .execute();
  }
}
