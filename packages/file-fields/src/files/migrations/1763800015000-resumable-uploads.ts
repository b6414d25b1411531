import { Table, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';

/** Resumable uploads under way (tus and the IETF draft): their target, progress, expiry and lease. */
export class ResumableUploads1763800015000 implements MigrationInterface {
  name = 'ResumableUploads1763800015000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const epoch = (name: string, isNullable = false) => ({ name, type: 'bigint', isNullable });
    await queryRunner.createTable(
      new Table({
        name: 'resumable_uploads',
        columns: [
          { name: 'id', type: 'integer', isPrimary: true, isGenerated: true, generationStrategy: 'increment' },
          { name: 'id_hash', type: 'varchar', length: '64', isUnique: true },
          { name: 'attachment_type', type: 'varchar', length: '64' },
          { name: 'attachment_id', type: 'integer' },
          { name: 'field', type: 'varchar', length: '64' },
          { name: 'subject', type: 'varchar', length: '255' },
          epoch('declared_length', true),
          epoch('upload_offset'),
          { name: 'original_name', type: 'varchar', length: '255' },
          { name: 'metadata', type: 'varchar', length: '4096', isNullable: true },
          { name: 'mime_type', type: 'varchar', length: '255', isNullable: true },
          { name: 'storage_key', type: 'varchar', length: '512' },
          epoch('created_at'),
          epoch('expires_at'),
          epoch('lease_until', true),
          { name: 'lease_token', type: 'varchar', length: '36', isNullable: true },
        ],
      }),
    );
    await queryRunner.createIndex(
      'resumable_uploads',
      new TableIndex({ name: 'ix_resumable_uploads_expires', columnNames: ['expires_at'] }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('resumable_uploads');
  }
}
