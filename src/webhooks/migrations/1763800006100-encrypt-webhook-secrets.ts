import { TableColumn, type MigrationInterface, type QueryRunner } from 'typeorm';
import { SecretBox, secretBoxFromEnvironment } from '../../secrets/index.js';
import { WEBHOOK_SECRET_CONTEXT } from '../repositories/webhook-endpoints.repository.js';

type Row = { id: number; secret: string; previous_secret: string | null };
const SECRET_COLUMNS = ['secret', 'previous_secret'] as const;

/**
 * Webhook signing secrets are sealed with SECRETS_KEY: the columns become text (a sealed value is longer than 100
 * characters) and every row not sealed yet is sealed. `down` opens them and gives the columns back their length.
 */
export class EncryptWebhookSecrets1763800006100 implements MigrationInterface {
  name = 'EncryptWebhookSecrets1763800006100';

  async up(queryRunner: QueryRunner): Promise<void> {
    await retype(queryRunner, { type: 'text' });
    await rewrite(queryRunner, true);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await rewrite(queryRunner, false);
    await retype(queryRunner, { type: 'varchar', length: '100' });
  }
}

/**
 * Changes both secret columns to the type, keeping their values. On PostgreSQL with ALTER COLUMN ... TYPE (TypeORM's
 * changeColumn would drop and add the column); on SQLite, TypeORM rebuilds the table, once, when a column differs.
 */
async function retype(queryRunner: QueryRunner, type: { type: string; length?: string }): Promise<void> {
  if (queryRunner.connection.options.type === 'postgres') {
    const sql = type.length ? `varchar(${type.length})` : type.type;
    const alter = SECRET_COLUMNS.map((name) => `ALTER COLUMN "${name}" TYPE ${sql}`).join(', ');
    await queryRunner.query(`ALTER TABLE webhook_endpoints ${alter}`);
    return;
  }
  const table = await queryRunner.getTable('webhook_endpoints');
  if (!table) throw new Error('webhook_endpoints does not exist');
  const changes = SECRET_COLUMNS.map((name) => table.findColumnByName(name))
    .filter((column): column is TableColumn => column !== undefined && column.type !== type.type)
    .map((column) => ({
      oldColumn: column,
      newColumn: new TableColumn({ name: column.name, isNullable: column.isNullable, ...type }),
    }));
  if (changes.length > 0) await queryRunner.changeColumns(table, changes);
}

/** Seals (or opens) every secret not in that state yet; the key is only resolved when a row needs it. */
async function rewrite(queryRunner: QueryRunner, seal: boolean): Promise<void> {
  const rows = (await queryRunner.query('SELECT id, secret, previous_secret FROM webhook_endpoints')) as Row[];
  const needs = (value: string | null) => value !== null && SecretBox.isSealed(value) !== seal;
  const pending = rows.filter((row) => needs(row.secret) || needs(row.previous_secret));
  if (pending.length === 0) return;
  const box = secretBoxFromEnvironment();
  const change = (value: string | null) =>
    value === null || !needs(value)
      ? value
      : seal
        ? box.seal(value, WEBHOOK_SECRET_CONTEXT)
        : box.open(value, WEBHOOK_SECRET_CONTEXT);
  const [a, b, c] = queryRunner.connection.options.type === 'postgres' ? ['$1', '$2', '$3'] : ['?', '?', '?'];
  for (const row of pending) {
    await queryRunner.query(`UPDATE webhook_endpoints SET secret = ${a}, previous_secret = ${b} WHERE id = ${c}`, [
      change(row.secret),
      change(row.previous_secret),
      row.id,
    ]);
  }
}
