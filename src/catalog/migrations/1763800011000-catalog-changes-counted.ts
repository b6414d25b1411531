import type { MigrationInterface, QueryRunner } from 'typeorm';
import { countChangesOf, stopCountingChangesOf } from '@file-fields/nest';

/** Kept catalog answers are made from these tables: their changes end them (see countChangesOf). */
export class CatalogChangesCounted1763800011000 implements MigrationInterface {
  name = 'CatalogChangesCounted1763800011000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await countChangesOf(queryRunner, ['products', 'articles']);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await stopCountingChangesOf(queryRunner, ['products', 'articles']);
  }
}
