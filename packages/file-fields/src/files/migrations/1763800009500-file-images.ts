import { TableColumn, type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * File records get the size of images (`width`, `height`, null for other files and for files stored before) and the
 * state of their image variants (`variants`, JSON text: name → storage key, size and type).
 */
export class FileImages1763800009500 implements MigrationInterface {
  name = 'FileImages1763800009500';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.addColumns('file_records', [
      new TableColumn({ name: 'width', type: 'integer', isNullable: true }),
      new TableColumn({ name: 'height', type: 'integer', isNullable: true }),
      new TableColumn({ name: 'variants', type: 'text', isNullable: true }),
    ]);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropColumn('file_records', 'variants');
    await queryRunner.dropColumn('file_records', 'height');
    await queryRunner.dropColumn('file_records', 'width');
  }
}
