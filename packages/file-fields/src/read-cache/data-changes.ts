import type { DataSource, QueryRunner } from 'typeorm';

/**
 * A table whose `version` column, summed over its rows, grows with every committed change of the tables kept answers
 * are made from (see {@link countChangesOf}), and of no other: the service's own bookkeeping (audit rows, webhook
 * attempts, a token's `last_used_at`) leaves kept answers valid. Triggers count the changes, so a write through any
 * connection (another instance, the command line, psql) counts too.
 *
 * SQLite has one row (it runs one write transaction at a time). PostgreSQL has {@link DATA_CHANGE_STRIPES} rows, one
 * per connection that counts (see {@link useStripedDataChanges}): a single row would serialize every commit of the
 * counted tables behind the one before it, its lock held through the commit's WAL flush.
 */
const DATA_CHANGES = 'data_changes';

/** Rows of {@link DATA_CHANGES} on PostgreSQL: more than the connections that write at once. */
const DATA_CHANGE_STRIPES = 128;

const FUNCTION = 'count_data_change';
/** The session setting that remembers the connection's own row of {@link DATA_CHANGES}. */
const STRIPE_SETTING = 'data_changes.stripe';
/** The first key of the session advisory locks that tell which connection counts on which row ('dcnt'). */
const STRIPE_LOCK_CLASS = 0x64636e74;

/**
 * `name` as SQL, in the DataSource's PostgreSQL schema when it names one: TypeORM addresses its tables there, whatever
 * the session's search path (an application's own DataSource may not set it).
 */
function sqlName(dataSource: DataSource, name: string): string {
  const schema = dataSource.options.type === 'postgres' ? dataSource.options.schema : undefined;
  return schema ? `"${schema}"."${name}"` : `"${name}"`;
}

/**
 * The statement DataVersion runs: the version that commits have reached, the sum of the rows. Every row only grows, so
 * the sum grows with every commit, and one statement reads every row in one snapshot: two equal sums mean that no
 * counted change was committed in between.
 */
export function dataChangesVersion(dataSource: DataSource): string {
  return `SELECT sum("version") AS "version" FROM ${sqlName(dataSource, DATA_CHANGES)}`;
}

/**
 * For a migration: counts every insert, update and delete of `tables` in {@link DATA_CHANGES} (created on first use).
 * A table that a `@CacheableRead()` handler's answer reads from must be counted, or its answers outlive its changes.
 *
 * On PostgreSQL the count runs when the transaction commits (a deferred constraint trigger), after every row lock the
 * transaction takes, on the connection's own row of {@link DATA_CHANGES} (see {@link useStripedDataChanges}): writers
 * never wait on one another there.
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
  if (postgres) await useStripedDataChanges(queryRunner);
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

/** Which of `tables` have no {@link countChangesOf} triggers: answers made from them could be kept past a change. */
export async function uncountedOf(dataSource: DataSource, tables: readonly string[]): Promise<string[]> {
  if (tables.length === 0) return [];
  const postgres = dataSource.options.type === 'postgres';
  const schema = dataSource.options.type === 'postgres' ? dataSource.options.schema : undefined;
  const expected = tables.map((table) =>
    postgres ? `${table}_changes` : ['insert', 'update', 'delete'].map((event) => `${table}_${event}_changes`),
  );
  const names = expected.flat();
  const found = postgres
    ? await dataSource.query<Array<{ name: string }>>(
        `SELECT t.tgname AS name FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
         JOIN pg_namespace n ON n.oid = c.relnamespace
         WHERE t.tgname = ANY($1) AND n.nspname = COALESCE($2, current_schema())`,
        [names, schema ?? null],
      )
    : await dataSource.query<Array<{ name: string }>>(
        `SELECT name FROM sqlite_master WHERE type = 'trigger' AND name IN (${names.map(() => '?').join(', ')})`,
        names,
      );
  const present = new Set(found.map((row) => row.name));
  return tables.filter((_, i) => [expected[i]].flat().some((name) => !present.has(name)));
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

/**
 * PostgreSQL: gives {@link DATA_CHANGES} its {@link DATA_CHANGE_STRIPES} rows and (re)defines the trigger function
 * that counts on them (SQLite: nothing to do). Each connection counts on a row of its own for as long as it lives: the
 * first count takes the first row, from one chosen by the backend's process id, whose session advisory lock is free,
 * and remembers it in a session setting; every later count is one UPDATE of that row by its key. Two connections
 * never share a row, so concurrent commits never wait for each other there; only past {@link DATA_CHANGE_STRIPES}
 * counting connections (to the whole database) do some share one. The new rows start at 0, so the sum, the version,
 * goes on from where the single row was.
 */
export async function useStripedDataChanges(queryRunner: QueryRunner): Promise<void> {
  const dataSource = queryRunner.connection;
  if (dataSource.options.type !== 'postgres') return;
  const changes = sqlName(dataSource, DATA_CHANGES);
  const stripes = DATA_CHANGE_STRIPES;
  await queryRunner.query(
    `INSERT INTO ${changes} ("id", "version")
     SELECT "id", 0 FROM generate_series(1, ${stripes}) AS "id" ON CONFLICT DO NOTHING`,
  );
  // A setting set in a transaction that rolls back is undone, the advisory lock is not: look for it first.
  await queryRunner.query(
    `CREATE OR REPLACE FUNCTION ${sqlName(dataSource, FUNCTION)}() RETURNS trigger LANGUAGE plpgsql AS $$
     DECLARE
       stripe integer := nullif(current_setting('${STRIPE_SETTING}', true), '')::integer;
     BEGIN
       IF stripe IS NULL THEN
         SELECT "objid"::integer INTO stripe FROM pg_locks
         WHERE "locktype" = 'advisory' AND "pid" = pg_backend_pid() AND "classid" = ${STRIPE_LOCK_CLASS}
           AND "objsubid" = 2 AND "granted"
         LIMIT 1;
         IF stripe IS NULL THEN
           SELECT 1 + (pg_backend_pid() + "step") % ${stripes} INTO stripe
           FROM generate_series(0, ${stripes - 1}) AS "step"
           WHERE pg_try_advisory_lock(${STRIPE_LOCK_CLASS}, 1 + (pg_backend_pid() + "step") % ${stripes})
           LIMIT 1;
         END IF;
         stripe := coalesce(stripe, 1 + pg_backend_pid() % ${stripes});
         PERFORM set_config('${STRIPE_SETTING}', stripe::text, false);
       END IF;
       UPDATE ${changes} SET "version" = "version" + 1 WHERE "id" = stripe;
       IF NOT FOUND THEN
         UPDATE ${changes} SET "version" = "version" + 1 WHERE "id" = 1;
       END IF;
       RETURN NULL;
     END $$`,
  );
}

/**
 * Undoes {@link useStripedDataChanges}: the other rows go, their sum into row 1, in one statement; the function counts
 * on row 1 again. The version stays where it was.
 */
export async function useSingleRowDataChanges(queryRunner: QueryRunner): Promise<void> {
  const dataSource = queryRunner.connection;
  if (dataSource.options.type !== 'postgres') return;
  const changes = sqlName(dataSource, DATA_CHANGES);
  await queryRunner.query(
    `WITH "gone" AS (DELETE FROM ${changes} WHERE "id" <> 1 RETURNING "version")
     UPDATE ${changes} SET "version" = "version" + (SELECT coalesce(sum("version"), 0) FROM "gone") WHERE "id" = 1`,
  );
  await queryRunner.query(
    `CREATE OR REPLACE FUNCTION ${sqlName(dataSource, FUNCTION)}() RETURNS trigger LANGUAGE plpgsql
     AS $$ BEGIN UPDATE ${changes} SET "version" = "version" + 1 WHERE "id" = 1; RETURN NULL; END $$`,
  );
}
