import { TableColumn, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * What the limits on unfinished uploads count by: indexes on the principal and on the field of resumable and direct
 * uploads; and the protocol a resumable upload was created with (`tus` or `draft`), in which its resource answers.
 */
export class OpenUploadLimits1763800017200 implements MigrationInterface {
  name = 'OpenUploadLimits1763800017200';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.addColumn(
      'resumable_uploads',
      new TableColumn({ name: 'protocol', type: 'varchar', length: '8', default: "'tus'" }),
    );
    for (const table of ['resumable_uploads', 'direct_uploads']) {
      await queryRunner.createIndex(table, new TableIndex({ name: `ix_${table}_subject`, columnNames: ['subject'] }));
      await queryRunner.createIndex(
        table,
        new TableIndex({ name: `ix_${table}_slot`, columnNames: ['attachment_type', 'attachment_id', 'field'] }),
      );
    }
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const table of ['direct_uploads', 'resumable_uploads']) {
      await queryRunner.dropIndex(table, `ix_${table}_slot`);
      await queryRunner.dropIndex(table, `ix_${table}_subject`);
    }
    await queryRunner.dropColumn('resumable_uploads', 'protocol');
  }
}
