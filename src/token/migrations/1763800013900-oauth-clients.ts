import { Table, type MigrationInterface, type QueryRunner } from 'typeorm';
import { columns } from '@file-fields/nest';

/** Applications registered for the authorization code flow, besides the built-in administration client. */
export class OAuthClients1763800013900 implements MigrationInterface {
  name = 'OAuthClients1763800013900';

  async up(queryRunner: QueryRunner): Promise<void> {
    const c = columns(queryRunner);
    await queryRunner.createTable(
      new Table({
        name: 'oauth_clients',
        columns: [
          c.id(),
          { name: 'client_id', type: 'varchar', length: '64', isUnique: true },
          { name: 'name', type: 'varchar', length: '200' },
          { name: 'redirect_uris', type: 'text' },
          { name: 'public', type: 'boolean' },
          { name: 'secret_hash', type: 'varchar', length: '64', isNullable: true },
          { name: 'created_by', type: 'varchar', length: '80' },
          ...c.timestamps(),
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('oauth_clients');
  }
}
