import { TableColumn, type MigrationInterface, type QueryRunner } from 'typeorm';

/** Integrations get an optional expiry (epoch ms) and a free-text owner. */
export class IntegrationLifecycle1763800004000 implements MigrationInterface {
  name = 'IntegrationLifecycle1763800004000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.addColumns('integrations', [
      new TableColumn({ name: 'expires_at', type: 'bigint', isNullable: true }),
      new TableColumn({ name: 'owner', type: 'varchar', length: '200', isNullable: true }),
    ]);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropColumn('integrations', 'owner');
    await queryRunner.dropColumn('integrations', 'expires_at');
  }
}
