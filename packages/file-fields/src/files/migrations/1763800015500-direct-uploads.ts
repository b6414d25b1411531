import { Table, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';
import { columns } from '../../database/migration-columns.js';

/** Direct uploads in progress (S3 multipart uploads sent by clients), by the SHA-256 of their id. */
export class DirectUploads1763800015500 implements MigrationInterface {
  name = 'DirectUploads1763800015500';

  async up(queryRunner: QueryRunner): Promise<void> {
    const c = columns(queryRunner);
    const epoch = (name: string, isNullable = false) => ({ name, type: 'bigint', isNullable });
    await queryRunner.createTable(
      new Table({
        name: 'direct_uploads',
        columns: [
          c.id(),
          { name: 'id_hash', type: 'varchar', length: '64', isUnique: true },
          { name: 'attachment_type', type: 'varchar', length: '64' },
          { name: 'attachment_id', type: 'integer' },
          { name: 'field', type: 'varchar', length: '64' },
          { name: 'subject', type: 'varchar', length: '255' },
          { name: 'storage_key', type: 'varchar', length: '512' },
          { name: 's3_upload_id', type: 'varchar', length: '1024' },
          { name: 'size', type: 'bigint' },
          { name: 'part_size', type: 'bigint' },
          { name: 'content_type', type: 'varchar', length: '255' },
          { name: 'filename', type: 'varchar', length: '255' },
          epoch('completing_at', true),
          epoch('created_at'),
          epoch('expires_at'),
        ],
      }),
    );
    await queryRunner.createIndex(
      'direct_uploads',
      new TableIndex({ name: 'ix_direct_uploads_expires', columnNames: ['expires_at'] }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('direct_uploads');
  }
}
