import { Table, TableColumn, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';
import { columns } from '@file-fields/nest';

const SCOPES = { name: 'scopes', type: 'text' };

/**
 * Registered OAuth clients get a scope ceiling (`scopes`), a default scope (`default_scopes`, null: the ceiling) and a
 * rotation's grace for their previous secret; people's consents to them are remembered in `oauth_grants`. Clients
 * registered before get an empty ceiling: they obtain no permission until someone who holds what they need sets one.
 */
export class OAuthClientScopes1763800017000 implements MigrationInterface {
  name = 'OAuthClientScopes1763800017000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const c = columns(queryRunner);
    // The default only fills the existing rows: a new client always names its ceiling.
    await queryRunner.addColumn('oauth_clients', new TableColumn({ ...SCOPES, default: "'[]'" }));
    await queryRunner.changeColumn('oauth_clients', 'scopes', new TableColumn(SCOPES));
    await queryRunner.addColumns('oauth_clients', [
      new TableColumn({ name: 'default_scopes', type: 'text', isNullable: true }),
      new TableColumn({ name: 'previous_secret_hash', type: 'varchar', length: '64', isNullable: true }),
      new TableColumn({ name: 'previous_secret_expires_at', type: 'bigint', isNullable: true }),
    ]);
    await queryRunner.createTable(
      new Table({
        name: 'oauth_grants',
        columns: [
          c.id(),
          { name: 'user_id', type: 'integer' },
          { name: 'client_id', type: 'varchar', length: '64' },
          { name: 'scopes', type: 'text' },
          { name: 'granted_at', type: 'bigint' },
        ],
        foreignKeys: [
          {
            columnNames: ['user_id'],
            referencedTableName: 'users',
            referencedColumnNames: ['id'],
            onDelete: 'CASCADE',
          },
        ],
      }),
    );
    await queryRunner.createIndex(
      'oauth_grants',
      new TableIndex({ name: 'ux_oauth_grants_user_client', columnNames: ['user_id', 'client_id'], isUnique: true }),
    );
    await queryRunner.createIndex(
      'oauth_grants',
      new TableIndex({ name: 'ix_oauth_grants_client', columnNames: ['client_id'] }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('oauth_grants');
    await queryRunner.dropColumn('oauth_clients', 'previous_secret_expires_at');
    await queryRunner.dropColumn('oauth_clients', 'previous_secret_hash');
    await queryRunner.dropColumn('oauth_clients', 'default_scopes');
    await queryRunner.dropColumn('oauth_clients', 'scopes');
  }
}
