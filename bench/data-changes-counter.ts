/**
 * Benchmark (not a test): the commit rate of concurrent writers to a table counted in `data_changes` (see
 * src/read-cache/data-changes.ts) on PostgreSQL, with the striped counter the service installs, with the single-row
 * counter it replaced, and with no trigger at all. Each writer is one connection committing transactions on a row of
 * its own, one after another: by default as the service commits a `PATCH` (BEGIN, the row locked, read, updated,
 * COMMIT), with BENCH_TRANSACTION=update a bare one-row UPDATE. Usage:
 * TEST_DATABASE_URL=postgres://… npm run bench:counter
 * BENCH_WRITERS (default 16), BENCH_SECONDS per round (default 3), BENCH_ROUNDS alternated rounds (default 9).
 * Prints the medians, their ratios to the rate without a trigger, and the median of each round's ratio; works in a
 * fresh schema, dropped at the end.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { DataSource } from 'typeorm';
import { countChangesOf, stopCountingChangesOf, useSingleRowDataChanges } from '@file-fields/nest';

const WRITERS = Number(process.env.BENCH_WRITERS ?? 16);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 9);
const TRANSACTION = process.env.BENCH_TRANSACTION === 'update' ? 'update' : 'patch';
const TABLE = 'items';
const MODES = ['none', 'striped', 'single-row'] as const;
type Mode = (typeof MODES)[number];

const url = process.env.TEST_DATABASE_URL;
if (!url) {
  process.stderr.write('Set TEST_DATABASE_URL to a PostgreSQL database (a schema of its own is made there).\n');
  process.exit(2);
}
const schema = `bench_counter_${randomBytes(4).toString('hex')}`;

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

/** Installs the counting of `mode` on the table (or none). */
async function install(dataSource: DataSource, mode: Mode): Promise<void> {
  const runner = dataSource.createQueryRunner();
  try {
    await stopCountingChangesOf(runner, [TABLE]);
    if (mode === 'none') return;
    await countChangesOf(runner, [TABLE]);
    if (mode === 'single-row') await useSingleRowDataChanges(runner);
  } finally {
    await runner.release();
  }
}

async function version(dataSource: DataSource): Promise<bigint> {
  const [row] = await dataSource.query<Array<{ version: string }>>(
    `SELECT sum("version") AS "version" FROM "${schema}"."data_changes"`,
  );
  return BigInt(row.version);
}

/**
 * One commit of a writer: as the service commits a `PATCH` (the row locked, read, updated), or a bare one-row UPDATE
 * (the trigger's cost weighs most there).
 */
async function commit(client: pg.Client, id: number): Promise<void> {
  if (TRANSACTION === 'update') {
    await client.query(`UPDATE "${TABLE}" SET "n" = "n" + 1 WHERE "id" = $1`, [id]);
    return;
  }
  await client.query('BEGIN');
  await client.query(`SELECT "id" FROM "${TABLE}" WHERE "id" = $1 FOR UPDATE`, [id]);
  await client.query(`SELECT "id", "n", "note" FROM "${TABLE}" WHERE "id" = $1`, [id]);
  await client.query(`UPDATE "${TABLE}" SET "n" = "n" + 1, "note" = $2 WHERE "id" = $1`, [id, `note ${Date.now()}`]);
  await client.query('COMMIT');
}

/** Every writer commits for SECONDS, one transaction after another; the commits per second of them all. */
async function round(writers: pg.Client[]): Promise<{ rate: number; commits: number }> {
  const deadline = Date.now() + SECONDS * 1000;
  const started = process.hrtime.bigint();
  const counts = await Promise.all(
    writers.map(async (client, index) => {
      let commits = 0;
      while (Date.now() < deadline) {
        await commit(client, index + 1);
        commits++;
      }
      return commits;
    }),
  );
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const commits = counts.reduce((a, b) => a + b, 0);
  return { rate: commits / seconds, commits };
}

async function main(): Promise<void> {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`CREATE SCHEMA "${schema}"`);
  const dataSource = new DataSource({ type: 'postgres', url, schema });
  const writers: pg.Client[] = [];
  try {
    await dataSource.initialize();
    await dataSource.query(
      `CREATE TABLE "${schema}"."${TABLE}" ("id" integer PRIMARY KEY, "n" bigint NOT NULL, "note" text)`,
    );
    await dataSource.query(
      `INSERT INTO "${schema}"."${TABLE}" SELECT "id", 0 FROM generate_series(1, ${WRITERS}) AS "id"`,
    );
    for (let i = 0; i < WRITERS; i++) {
      const client = new pg.Client({ connectionString: url, options: `-c search_path="${schema}"` });
      await client.connect();
      writers.push(client);
    }
    const [{ server_version: serverVersion }] = (await admin.query('SHOW server_version')).rows as Array<{
      server_version: string;
    }>;
    process.stderr.write(
      `PostgreSQL ${serverVersion}, ${WRITERS} writers (${TRANSACTION}), ${ROUNDS} rounds of ${SECONDS} s per counter\n`,
    );
    const rates: Record<Mode, number[]> = { none: [], striped: [], 'single-row': [] };
    for (let r = 0; r < ROUNDS; r++) {
      // Alternated: each counter runs first, second and last in turn, so drifts of the machine fall on all of them.
      const order = MODES.map((_, i) => MODES[(i + r) % MODES.length]);
      for (const mode of order) {
        await install(dataSource, mode);
        const before = mode === 'none' ? 0n : await version(dataSource);
        const { rate, commits } = await round(writers);
        if (mode !== 'none') {
          // Every commit counted exactly once: the counter is as exact as before, only faster.
          const counted = (await version(dataSource)) - before;
          if (counted !== BigInt(commits)) throw new Error(`${mode}: ${commits} commits, ${counted} counted`);
        }
        rates[mode].push(rate);
        process.stderr.write(`round ${r + 1} ${mode}: ${rate.toFixed(0)} commits/s\n`);
      }
    }
    const none = median(rates.none);
    const lines = MODES.map((mode) => {
      const rate = median(rates[mode]);
      // Each round's rate over that round's rate without a trigger: the load of the machine drifts less within a round.
      const paired = median(rates[mode].map((value, r) => value / rates.none[r]));
      return (
        `${mode.padEnd(10)} ${rate.toFixed(0).padStart(6)} commits/s  ${(rate / none).toFixed(2)}x of no trigger` +
        ` (median of the rounds' ratios ${paired.toFixed(2)}x)`
      );
    });
    process.stdout.write(
      `${WRITERS} writers (${TRANSACTION}), medians of ${ROUNDS} rounds of ${SECONDS} s:\n${lines.join('\n')}\n`,
    );
  } finally {
    await Promise.allSettled(writers.map((client) => client.end()));
    if (dataSource.isInitialized) await dataSource.destroy();
    await admin.query(`DROP SCHEMA "${schema}" CASCADE`);
    await admin.end();
  }
}

await main();
