import { Table, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';
import { columns } from '@file-fields/nest';

export class Webhooks1763800002000 implements MigrationInterface {
  name = 'Webhooks1763800002000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const c = columns(queryRunner);
    const epoch = (name: string, isNullable = false) => ({ name, type: 'bigint', isNullable });
    await queryRunner.createTable(
      new Table({
        name: 'webhook_endpoints',
        columns: [
          c.id(),
          { name: 'url', type: 'varchar', length: '2048' },
          { name: 'events', type: 'text' },
          { name: 'description', type: 'varchar', length: '500', isNullable: true },
          { name: 'secret', type: 'varchar', length: '100' },
          { name: 'previous_secret', type: 'varchar', length: '100', isNullable: true },
          epoch('previous_secret_expires_at', true),
          c.boolean('active', true),
          { name: 'disabled_reason', type: 'varchar', length: '200', isNullable: true },
          epoch('failing_since', true),
          ...c.timestamps(),
        ],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'webhook_events',
        columns: [
          { name: 'id', type: 'varchar', length: '64', isPrimary: true },
          { name: 'kind', type: 'varchar', length: '64' },
          { name: 'data', type: 'text' },
          epoch('created_at'),
        ],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'webhook_deliveries',
        columns: [
          c.id(),
          { name: 'event_id', type: 'varchar', length: '64' },
          { name: 'endpoint_id', type: 'integer' },
          { name: 'status', type: 'varchar', length: '16' },
          { name: 'attempts', type: 'integer', default: 0 },
          epoch('next_attempt_at'),
          { name: 'lease_owner', type: 'varchar', length: '64', isNullable: true },
          epoch('lease_until', true),
          { name: 'last_status_code', type: 'integer', isNullable: true },
          { name: 'last_error', type: 'varchar', length: '500', isNullable: true },
          epoch('created_at'),
          epoch('completed_at', true),
        ],
        foreignKeys: [
          { columnNames: ['event_id'], referencedTableName: 'webhook_events', referencedColumnNames: ['id'] },
          {
            columnNames: ['endpoint_id'],
            referencedTableName: 'webhook_endpoints',
            referencedColumnNames: ['id'],
            onDelete: 'CASCADE',
          },
        ],
      }),
    );
    await queryRunner.createIndex(
      'webhook_deliveries',
      new TableIndex({ name: 'ix_webhook_deliveries_due', columnNames: ['status', 'next_attempt_at'] }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'webhook_attempts',
        columns: [
          c.id(),
          { name: 'delivery_id', type: 'integer' },
          epoch('attempted_at'),
          { name: 'status_code', type: 'integer', isNullable: true },
          { name: 'error', type: 'varchar', length: '500', isNullable: true },
          { name: 'duration_ms', type: 'integer' },
          { name: 'response_body', type: 'text', isNullable: true },
        ],
        foreignKeys: [
          {
            columnNames: ['delivery_id'],
            referencedTableName: 'webhook_deliveries',
            referencedColumnNames: ['id'],
            onDelete: 'CASCADE',
          },
        ],
      }),
    );
    await queryRunner.createIndex(
      'webhook_attempts',
      new TableIndex({ name: 'ix_webhook_attempts_delivery', columnNames: ['delivery_id'] }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const table of ['webhook_attempts', 'webhook_deliveries', 'webhook_events', 'webhook_endpoints']) {
      await queryRunner.dropTable(table);
    }
  }
}
