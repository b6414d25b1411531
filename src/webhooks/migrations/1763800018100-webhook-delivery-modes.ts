import { TableColumn, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';
import { columns } from '@file-fields/nest';

/**
 * Endpoints choose their ordering (`none`, `per-entity`), their payload (`full`, `thin`), a rate (deliveries per
 * second, null: unbounded) and whether they are re-enabled by themselves once a probe succeeds (`auto_recover`); they
 * note when their owner was warned that they are failing and when a disabled one is next probed. Deliveries to an
 * endpoint ordered per entity carry the entity they are about (`ordering_key`), indexed by endpoint, key and id: the
 * order they were written in, which a claim looks up for the pending ones before each.
 */
export class WebhookDeliveryModes1763800018100 implements MigrationInterface {
  name = 'WebhookDeliveryModes1763800018100';

  async up(queryRunner: QueryRunner): Promise<void> {
    const c = columns(queryRunner);
    await queryRunner.addColumns('webhook_endpoints', [
      new TableColumn({ name: 'ordering', type: 'varchar', length: '16', default: "'none'" }),
      new TableColumn({ name: 'payload', type: 'varchar', length: '8', default: "'full'" }),
      new TableColumn({ name: 'rate_limit', type: 'integer', isNullable: true }),
      new TableColumn(c.boolean('auto_recover', false)),
      new TableColumn({ name: 'warned_at', type: 'bigint', isNullable: true }),
      new TableColumn({ name: 'next_probe_at', type: 'bigint', isNullable: true }),
    ]);
    await queryRunner.addColumn(
      'webhook_deliveries',
      new TableColumn({ name: 'ordering_key', type: 'varchar', length: '200', isNullable: true }),
    );
    await queryRunner.createIndex(
      'webhook_deliveries',
      new TableIndex({
        name: 'ix_webhook_deliveries_ordering',
        columnNames: ['endpoint_id', 'ordering_key', 'id'],
        where: "status = 'pending' AND ordering_key IS NOT NULL",
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropIndex('webhook_deliveries', 'ix_webhook_deliveries_ordering');
    await queryRunner.dropColumn('webhook_deliveries', 'ordering_key');
    for (const column of ['next_probe_at', 'warned_at', 'auto_recover', 'rate_limit', 'payload', 'ordering'])
      await queryRunner.dropColumn('webhook_endpoints', column);
  }
}
