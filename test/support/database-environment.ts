import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

/** The environment of a fresh database for one instance (or several sharing it), and how to remove it. */
export interface DatabaseEnvironment {
  env: Record<string, string>;
  dataDir: string;
  drop(): Promise<void>;
}

/**
 * A fresh database: SQLite in a temporary DATA_DIR, or, given a PostgreSQL URL, a schema of its own there with its own
 * SECRETS_KEY (PostgreSQL requires one; on SQLite it stays unset, so the service generates DATA_DIR/secrets.key).
 * `prefix` names the directory and the schema (`e2e`, `bench`). Used by the e2e suites and by the benchmark.
 */
export async function createDatabaseEnvironment(prefix: string, postgresUrl?: string): Promise<DatabaseEnvironment> {
  const dataDir = await mkdtemp(join(tmpdir(), `ffs-${prefix}-`));
  const removeDataDir = () => rm(dataDir, { recursive: true, force: true });
  if (!postgresUrl) return { env: { DATA_DIR: dataDir }, dataDir, drop: removeDataDir };
  const schema = `${prefix}_${randomBytes(6).toString('hex')}`;
  await withPg(postgresUrl, (client) => client.query(`CREATE SCHEMA "${schema}"`));
  return {
    env: {
      DATA_DIR: dataDir,
      DATABASE_URL: postgresUrl,
      DATABASE_SCHEMA: schema,
      SECRETS_KEY: randomBytes(32).toString('base64'),
    },
    dataDir,
    drop: async () => {
      await withPg(postgresUrl, (client) => client.query(`DROP SCHEMA "${schema}" CASCADE`));
      await removeDataDir();
    },
  };
}

async function withPg<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}
