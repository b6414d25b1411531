import { Table, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';
import { columns } from '../../database/migration-columns.js';

/**
 * The file records table. The class keeps its first name, under which existing databases recorded it; the catalog's
 * tables it also created then now come from the catalog's own migration (which skips tables that exist).
 */
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
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('file_records');
  }
}
