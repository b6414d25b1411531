import { TableColumn, type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * Endpoints record who created them (`integration:<id>`, `user:<id>`) and the scope of the token that did: an endpoint
 * delivers only events its creator may read. Endpoints made before have neither, and go on receiving every event, as
 * if an administrator holding `*` had created them.
 */
export class WebhookEndpointCreator1763800010100 implements MigrationInterface {
  name = 'WebhookEndpointCreator1763800010100';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.addColumns('webhook_endpoints', [
      new TableColumn({ name: 'created_by', type: 'varchar', length: '80', isNullable: true }),
      new TableColumn({ name: 'creator_scopes', type: 'text', isNullable: true }),
    ]);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropColumn('webhook_endpoints', 'creator_scopes');
    await queryRunner.dropColumn('webhook_endpoints', 'created_by');
  }
}
