import { Table, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';
import { columns } from '@file-fields/nest';

/** Authorization codes of the authorization code flow with PKCE, stored as SHA-256. */
export class AuthorizationCodes1763800012000 implements MigrationInterface {
  name = 'AuthorizationCodes1763800012000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const c = columns(queryRunner);
    const epoch = (name: string, isNullable = false) => ({ name, type: 'bigint', isNullable });
    await queryRunner.createTable(
      new Table({
        name: 'authorization_codes',
        columns: [
          c.id(),
          { name: 'code_hash', type: 'varchar', length: '64', isUnique: true },
          { name: 'client_id', type: 'varchar', length: '64' },
          { name: 'redirect_uri', type: 'varchar', length: '2000' },
          { name: 'code_challenge', type: 'varchar', length: '128' },
          { name: 'user_id', type: 'integer' },
          { name: 'scope', type: 'varchar', length: '2000' },
          epoch('created_at'),
          epoch('expires_at'),
          epoch('used_at', true),
          { name: 'family_id', type: 'varchar', length: '36', isNullable: true },
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
      'authorization_codes',
      new TableIndex({ name: 'ix_authorization_codes_expires', columnNames: ['expires_at'] }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('authorization_codes');
  }
}
