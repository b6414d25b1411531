import type { MigrationInterface, QueryRunner } from 'typeorm';
import { countChangesOf, stopCountingChangesOf } from '../../read-cache/index.js';

/** Kept answers show their entities' file records: a change of one ends them (see countChangesOf). */
export class FileRecordChangesCounted1763800011100 implements MigrationInterface {
  name = 'FileRecordChangesCounted1763800011100';

  async up(queryRunner: QueryRunner): Promise<void> {
    await countChangesOf(queryRunner, ['file_records']);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await stopCountingChangesOf(queryRunner, ['file_records']);
  }
}
