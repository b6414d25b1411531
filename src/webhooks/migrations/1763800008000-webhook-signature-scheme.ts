import { TableColumn, type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * Endpoints get a signature scheme, `github` or `standard` (Standard Webhooks), and the scheme of their previous
 * secret (a rotation may change the scheme). Existing endpoints are `github`: they keep their secrets and signatures.
 */
export class WebhookSignatureScheme1763800008000 implements MigrationInterface {
  name = 'WebhookSignatureScheme1763800008000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.addColumns('webhook_endpoints', [
      new TableColumn({ name: 'signature_scheme', type: 'varchar', length: '16', default: "'github'" }),
      new TableColumn({ name: 'previous_signature_scheme', type: 'varchar', length: '16', isNullable: true }),
    ]);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropColumn('webhook_endpoints', 'previous_signature_scheme');
    await queryRunner.dropColumn('webhook_endpoints', 'signature_scheme');
  }
}
