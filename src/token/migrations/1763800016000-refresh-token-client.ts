import { TableColumn, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';

const CLIENT_ID = { name: 'client_id', type: 'varchar', length: '64' };

/**
 * Refresh tokens are bound to the client they were issued to. Before, only the administration client was handed any;
 * a registered application's sign-in still made a family (never given out), and its authorization code, if still
 * kept, names its client: those families are bound to it, so deleting the client also ends their access tokens.
 */
export class RefreshTokenClient1763800016000 implements MigrationInterface {
  name = 'RefreshTokenClient1763800016000';

  async up(queryRunner: QueryRunner): Promise<void> {
    // The default only fills the existing rows: a new token always names its client.
    await queryRunner.addColumn('refresh_tokens', new TableColumn({ ...CLIENT_ID, default: "'administration'" }));
    await queryRunner.query(
      `UPDATE "refresh_tokens" SET "client_id" = (
         SELECT MAX("codes"."client_id") FROM "authorization_codes" "codes"
         WHERE "codes"."family_id" = "refresh_tokens"."family_id")
       WHERE "family_id" IN (SELECT "family_id" FROM "authorization_codes" WHERE "family_id" IS NOT NULL)`,
    );
    await queryRunner.changeColumn('refresh_tokens', 'client_id', new TableColumn(CLIENT_ID));
    await queryRunner.createIndex(
      'refresh_tokens',
      new TableIndex({ name: 'ix_refresh_tokens_client', columnNames: ['client_id'] }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropIndex('refresh_tokens', 'ix_refresh_tokens_client');
    await queryRunner.dropColumn('refresh_tokens', 'client_id');
  }
}
