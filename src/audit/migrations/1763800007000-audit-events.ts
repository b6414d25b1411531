import { Table, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';
import { columns } from '@file-fields/nest';

export class AuditEvents1763800007000 implements MigrationInterface {
  name = 'AuditEvents1763800007000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const c = columns(queryRunner);
    const text = (name: string, length: string, isNullable = true) => ({ name, type: 'varchar', length, isNullable });
    await queryRunner.createTable(
      new Table({
        name: 'audit_events',
        columns: [
          c.id(),
          { name: 'occurred_at', type: 'bigint' },
          text('actor', '100', false),
          text('client_id', '100'),
          text('action', '64', false),
          text('target_type', '64'),
          text('target_id', '64'),
          text('outcome', '16', false),
          text('request_id', '128'),
          text('source_ip', '64'),
          { name: 'details', type: 'text', isNullable: true },
        ],
      }),
    );
    for (const [name, column] of [
      ['ix_audit_events_occurred_at', 'occurred_at'],
      ['ix_audit_events_actor', 'actor'],
      ['ix_audit_events_action', 'action'],
    ]) {
      await queryRunner.createIndex('audit_events', new TableIndex({ name, columnNames: [column] }));
    }
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('audit_events');
  }
}
