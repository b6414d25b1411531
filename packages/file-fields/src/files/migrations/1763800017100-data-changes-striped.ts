import type { MigrationInterface, QueryRunner } from 'typeorm';
import { useSingleRowDataChanges, useStripedDataChanges } from '../../read-cache/index.js';

/**
 * PostgreSQL: the changes of the counted tables (file records here, products and articles in the catalog) are counted
 * on rows that concurrent commits do not share, instead of on one row every commit queued for (see
 * useStripedDataChanges). SQLite keeps its single row.
 */
export class DataChangesStriped1763800017100 implements MigrationInterface {
  name = 'DataChangesStriped1763800017100';

  async up(queryRunner: QueryRunner): Promise<void> {
    await useStripedDataChanges(queryRunner);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await useSingleRowDataChanges(queryRunner);
  }
}
