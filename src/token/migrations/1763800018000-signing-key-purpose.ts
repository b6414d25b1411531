import { TableColumn, type MigrationInterface, type QueryRunner } from 'typeorm';

/** Signing keys say what they sign: access tokens (every key made before), or webhook deliveries (Ed25519). */
export class SigningKeyPurpose1763800018000 implements MigrationInterface {
  name = 'SigningKeyPurpose1763800018000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.addColumn(
      'signing_keys',
      new TableColumn({ name: 'purpose', type: 'varchar', length: '16', default: "'access-token'" }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropColumn('signing_keys', 'purpose');
  }
}
