import { TableColumn, type MigrationInterface, type QueryRunner } from 'typeorm';

/** Signing keys get when they start signing and when a newer key took over (epoch ms; null: since creation / not). */
export class SigningKeyRotation1763800005000 implements MigrationInterface {
  name = 'SigningKeyRotation1763800005000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.addColumns('signing_keys', [
      new TableColumn({ name: 'activates_at', type: 'bigint', isNullable: true }),
      new TableColumn({ name: 'retired_at', type: 'bigint', isNullable: true }),
    ]);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropColumn('signing_keys', 'retired_at');
    await queryRunner.dropColumn('signing_keys', 'activates_at');
  }
}
