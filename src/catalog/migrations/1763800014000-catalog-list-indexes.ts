import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The catalog lists are ordered by name (title) in lower case or by creation time, ties by id (see findPage): an
 * index per order lets a page be read without sorting the table. The name indexes are on expressions, which
 * TypeORM cannot describe; the entities declare them `synchronize: false`.
 */
const CATALOG_LIST_INDEXES = [
  ['ix_products_name', 'products', 'lower("name"), "id"'],
  ['ix_products_created_at', 'products', '"created_at", "id"'],
  ['ix_articles_title', 'articles', 'lower("title"), "id"'],
  ['ix_articles_created_at', 'articles', '"created_at", "id"'],
] as const;

export class CatalogListIndexes1763800014000 implements MigrationInterface {
  name = 'CatalogListIndexes1763800014000';

  async up(queryRunner: QueryRunner): Promise<void> {
    for (const [name, table, columns] of CATALOG_LIST_INDEXES) {
      await queryRunner.query(`CREATE INDEX "${name}" ON "${table}" (${columns})`);
    }
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const [name] of CATALOG_LIST_INDEXES) await queryRunner.query(`DROP INDEX "${name}"`);
  }
}
