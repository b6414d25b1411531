import type { DataSource, QueryRunner } from 'typeorm';

/**
 * One row whose `version` grows with every committed change of the tables kept answers are made from (see
 * {@link countChangesOf}), and of no other: the service's own bookkeeping (audit rows, webhook attempts, a token's
 * `last_used_at`) leaves kept answers valid. Triggers count the changes, so a write through any connection (another
 * instance, the command line, psql) counts too.
 */
export const DATA_CHANGES = 'data_changes';

const FUNCTION = 'count_data_change';

/**
 * `name` as SQL, in the DataSource's PostgreSQL schema when it names one: TypeORM addresses its tables there, whatever
 * the session's search path (an application's own DataSource may not set it).
 */
function sqlName(dataSource: DataSource, name: string): string {
  const schema = dataSource.options.type === 'postgres' ? dataSource.options.schema : undefined;
  return schema ? `"${schema}"."${name}"` : `"${name}"`;
}

/** The statement DataVersion runs: the version that commits have reached. */
export function dataChangesVersion(dataSource: DataSource): string {
  return `SELECT "version" FROM ${sqlName(dataSource, DATA_CHANGES)} WHERE "id" = 1`;
}

/**
 * For a migration: counts every insert, update and delete of `tables` in {@link DATA_CHANGES} (created on first use).
 * A table that a `@CacheableRead()` handler's answer reads from must be counted, or its answers outlive its changes.
 *
 * On PostgreSQL the count runs when the transaction commits (a deferred constraint trigger), so the row is locked
 * only between the count and the commit, after every row lock the transaction takes: writers never wait on it while
 * holding other locks they might need in another order.
 */
export async function countChangesOf(queryRunner: QueryRunner, tables: readonly string[]): Promise<void> {
  const dataSource = queryRunner.connection;
  const postgres = dataSource.options.type === 'postgres';
  const changes = sqlName(dataSource, DATA_CHANGES);
  const count = `UPDATE ${changes} SET "version" = "version" + 1 WHERE "id" = 1`;
  const countFunction = sqlName(dataSource, FUNCTION);
  await queryRunner.query(
    `CREATE TABLE IF NOT EXISTS ${changes} ("id" integer PRIMARY KEY, "version" bigint NOT NULL)`,
  );
  await queryRunner.query(`INSERT INTO ${changes} ("id", "version") VALUES (1, 0) ON CONFLICT DO NOTHING`);
  if (postgres) {
    await queryRunner.query(
      `CREATE OR REPLACE FUNCTION ${countFunction}() RETURNS trigger LANGUAGE plpgsql
       AS $$ BEGIN ${count}; RETURN NULL; END $$`,
    );
  }
  for (const table of tables) {
    if (postgres) {
      const target = sqlName(dataSource, table);
      await queryRunner.query(
        `CREATE CONSTRAINT TRIGGER "${table}_changes" AFTER INSERT OR UPDATE OR DELETE ON ${target}
         DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION ${countFunction}()`,
      );
      // TRUNCATE fires no row trigger.
      await queryRunner.query(
        `CREATE TRIGGER "${table}_truncated" AFTER TRUNCATE ON ${target}
         FOR EACH STATEMENT EXECUTE FUNCTION ${countFunction}()`,
      );
    } else {
      for (const event of ['INSERT', 'UPDATE', 'DELETE']) {
        await queryRunner.query(
          `CREATE TRIGGER "${table}_${event.toLowerCase()}_changes" AFTER ${event} ON "${table}"
           BEGIN ${count}; END`,
        );
      }
    }
  }
}

/** Undoes {@link countChangesOf} for `tables` (the table of versions stays: other tables may still be counted). */
export async function stopCountingChangesOf(queryRunner: QueryRunner, tables: readonly string[]): Promise<void> {
  const dataSource = queryRunner.connection;
  const postgres = dataSource.options.type === 'postgres';
  for (const table of tables) {
    const triggers = postgres
      ? [`${table}_changes`, `${table}_truncated`]
      : ['insert', 'update', 'delete'].map((event) => `${table}_${event}_changes`);
    for (const trigger of triggers) {
      await queryRunner.query(
        `DROP TRIGGER IF EXISTS "${trigger}"${postgres ? ` ON ${sqlName(dataSource, table)}` : ''}`,
      );
    }
  }
}
