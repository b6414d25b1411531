import { TableColumn, type MigrationInterface, type QueryRunner } from 'typeorm';

/** Integrations get a token version, raised when one is disabled or changes role, so its older tokens stay dead. */
export class IntegrationTokenVersion1763800003000 implements MigrationInterface {
  name = 'IntegrationTokenVersion1763800003000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.addColumn(
      'integrations',
      new TableColumn({ name: 'token_version', type: 'integer', default: 0 }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropColumn('integrations', 'token_version');
  }
}
