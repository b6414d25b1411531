import { TableColumn, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * What the storage keeps of a resumable upload between requests (S3: its multipart upload id, parts and tail), and a
 * unique index on the storage key, by which the storage finds its row on every request.
 */
export class ResumableStorageState1763800015600 implements MigrationInterface {
  name = 'ResumableStorageState1763800015600';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.addColumn(
      'resumable_uploads',
      new TableColumn({ name: 'storage_state', type: 'text', isNullable: true }),
    );
    await queryRunner.createIndex(
      'resumable_uploads',
      new TableIndex({ name: 'ux_resumable_uploads_storage_key', columnNames: ['storage_key'], isUnique: true }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropIndex('resumable_uploads', 'ux_resumable_uploads_storage_key');
    await queryRunner.dropColumn('resumable_uploads', 'storage_state');
  }
}
