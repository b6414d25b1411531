import { Table, type MigrationInterface, type QueryRunner, type TableColumnOptions } from 'typeorm';
import { columns } from '@file-fields/nest';

/**
 * The example entities' tables. Databases created before the catalog had its own migration have them already (the
 * files migration made them then), hence `ifNotExist`.
 */
export class Catalog1763799999000 implements MigrationInterface {
  name = 'Catalog1763799999000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const c = columns(queryRunner);
    const table = (name: string, own: TableColumnOptions[]) =>
      queryRunner.createTable(new Table({ name, columns: [c.id(), ...own, ...c.timestamps()] }), true);
    await table('products', [
      { name: 'name', type: 'varchar', length: '200' },
      { name: 'description', type: 'text', isNullable: true },
    ]);
    await table('articles', [{ name: 'title', type: 'varchar', length: '300' }]);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('articles');
    await queryRunner.dropTable('products');
  }
}
