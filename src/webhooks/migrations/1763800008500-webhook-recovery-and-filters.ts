import { TableColumn, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * Endpoints get a `filter` (by attachment type, JSON); deliveries note when a recovery re-queued them
 * (`recovered_at`), and are indexed by endpoint, status and creation, the order a recovery reads them in (the
 * delivery log of an endpoint reads that index too).
 */
export class WebhookRecoveryAndFilters1763800008500 implements MigrationInterface {
  name = 'WebhookRecoveryAndFilters1763800008500';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.addColumn(
      'webhook_endpoints',
      new TableColumn({ name: 'filter', type: 'text', isNullable: true }),
    );
    await queryRunner.addColumn(
      'webhook_deliveries',
      new TableColumn({ name: 'recovered_at', type: 'bigint', isNullable: true }),
    );
    await queryRunner.createIndex(
      'webhook_deliveries',
      new TableIndex({ name: 'ix_webhook_deliveries_endpoint', columnNames: ['endpoint_id', 'status', 'created_at'] }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropIndex('webhook_deliveries', 'ix_webhook_deliveries_endpoint');
    await queryRunner.dropColumn('webhook_deliveries', 'recovered_at');
    await queryRunner.dropColumn('webhook_endpoints', 'filter');
  }
}
