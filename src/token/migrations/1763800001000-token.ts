import { Table, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';
import { columns } from '@file-fields/nest';

export class Token1763800001000 implements MigrationInterface {
  name = 'Token1763800001000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const c = columns(queryRunner);
    const epoch = (name: string, isNullable = false) => ({ name, type: 'bigint', isNullable });
    await queryRunner.createTable(
      new Table({
        name: 'roles',
        columns: [
          c.id(),
          { name: 'name', type: 'varchar', length: '64', isUnique: true },
          { name: 'permissions', type: 'text' },
          c.boolean('built_in', false),
          ...c.timestamps(),
        ],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'users',
        columns: [
          c.id(),
          { name: 'username', type: 'varchar', length: '64', isUnique: true },
          { name: 'password_hash', type: 'varchar', length: '255' },
          { name: 'role_id', type: 'integer' },
          { name: 'token_version', type: 'integer', default: 0 },
          ...c.timestamps(),
        ],
        foreignKeys: [{ columnNames: ['role_id'], referencedTableName: 'roles', referencedColumnNames: ['id'] }],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'integrations',
        columns: [
          c.id(),
          { name: 'label', type: 'varchar', length: '200' },
          { name: 'access_key_id', type: 'varchar', length: '64', isUnique: true },
          { name: 'secret_hash', type: 'varchar', length: '64' },
          { name: 'previous_secret_hash', type: 'varchar', length: '64', isNullable: true },
          epoch('previous_secret_expires_at', true),
          { name: 'role_id', type: 'integer' },
          c.boolean('active', true),
          epoch('last_used_at', true),
          ...c.timestamps(),
        ],
        foreignKeys: [{ columnNames: ['role_id'], referencedTableName: 'roles', referencedColumnNames: ['id'] }],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'refresh_tokens',
        columns: [
          c.id(),
          { name: 'token_hash', type: 'varchar', length: '64', isUnique: true },
          { name: 'family_id', type: 'varchar', length: '36' },
          { name: 'user_id', type: 'integer' },
          { name: 'scope', type: 'varchar', length: '2000' },
          epoch('created_at'),
          epoch('idle_expires_at'),
          epoch('absolute_expires_at'),
          epoch('used_at', true),
          epoch('revoked_at', true),
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
      'refresh_tokens',
      new TableIndex({ name: 'ix_refresh_tokens_family', columnNames: ['family_id'] }),
    );
    await queryRunner.createIndex(
      'refresh_tokens',
      new TableIndex({ name: 'ix_refresh_tokens_user', columnNames: ['user_id'] }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'signing_keys',
        columns: [
          { name: 'kid', type: 'varchar', length: '64', isPrimary: true },
          { name: 'algorithm', type: 'varchar', length: '16' },
          { name: 'private_key', type: 'text' },
          { name: 'public_key', type: 'text' },
          c.timestamps()[0],
        ],
      }),
    );
    // Literal SQL: a migration must not depend on today's entity classes.
    const yes = queryRunner.connection.options.type === 'postgres' ? 'true' : '1';
    await queryRunner.query(
      `INSERT INTO "roles" ("name", "permissions", "built_in") VALUES ('admin', '["*"]', ${yes})`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const table of ['signing_keys', 'refresh_tokens', 'integrations', 'users', 'roles']) {
      await queryRunner.dropTable(table);
    }
  }
}
