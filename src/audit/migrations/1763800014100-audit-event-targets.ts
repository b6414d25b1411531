import { TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';

/** The audit page filters on a target (`target_type`, and `target_id` with it): without an index, a table scan. */
export class AuditEventTargets1763800014100 implements MigrationInterface {
  name = 'AuditEventTargets1763800014100';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createIndex(
      'audit_events',
      new TableIndex({ name: 'ix_audit_events_target', columnNames: ['target_type', 'target_id'] }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropIndex('audit_events', 'ix_audit_events_target');
  }
}
