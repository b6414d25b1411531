import { Table, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';
import { columns } from './column-types.js';

export class FilesAndCatalog1763800000000 implements MigrationInterface {
  name = 'FilesAndCatalog1763800000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const c = columns(queryRunner);
    await queryRunner.createTable(
      new Table({
        name: 'file_records',
        columns: [
          c.id(),
          { name: 'path', type: 'varchar', length: '512' },
          { name: 'attachment_id', type: 'integer' },
          { name: 'attachment_type', type: 'varchar', length: '64' },
          { name: 'field', type: 'varchar', length: '64' },
          { name: 'sort_order', type: 'integer' },
          { name: 'original_name', type: 'varchar', length: '255' },
          { name: 'mime_type', type: 'varchar', length: '255' },
          { name: 'size', type: 'bigint' },
          { name: 'checksum_sha256', type: 'varchar', length: '64' },
          ...c.timestamps(),
        ],
      }),
    );
    await queryRunner.createIndex(
      'file_records',
      new TableIndex({
        name: 'uq_file_records_slot',
        columnNames: ['attachment_type', 'attachment_id', 'field', 'sort_order'],
        isUnique: true,
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'products',
        columns: [
          c.id(),
          { name: 'name', type: 'varchar', length: '200' },
          { name: 'description', type: 'text', isNullable: true },
          ...c.timestamps(),
        ],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'articles',
        columns: [c.id(), { name: 'title', type: 'varchar', length: '300' }, ...c.timestamps()],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('articles');
    await queryRunner.dropTable('products');
    await queryRunner.dropTable('file_records');
  }
}
