import { existsSync } from 'node:fs';
import { appendFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
// Loading the application module registers every feature's entities and migrations (DatabaseModule.forFeature).
import '../app.module.js';
import { loadAppConfig } from '../config/environment.js';
import { buildDataSourceOptions } from '../database/data-source-options.js';
import {
  migrationSource,
  pendingStatements,
  type DialectStatements,
  type GeneratedStatements,
} from '../database/migration-generator.js';
import type { MigrationTarget } from './migration-generate-command-line.js';

/**
 * Generates the migration on fresh databases, migrated from nothing, so that what it holds is what the entities
 * declare beyond every migration, whatever the developer's own database holds: a temporary SQLite file, and a
 * temporary schema of DATABASE_URL's PostgreSQL when it names one. Returns the path written, or undefined when there
 * was nothing to do.
 */
export async function generateMigration(target: MigrationTarget, env = process.env): Promise<string | undefined> {
  const statements: GeneratedStatements = { sqlite: await onSqlite(env) };
  if (env.DATABASE_URL) statements.postgres = await onPostgres(env.DATABASE_URL, env);
  const nothing = (found?: DialectStatements) => !found || (found.up.length === 0 && found.count.length === 0);
  if (nothing(statements.sqlite) && nothing(statements.postgres)) return undefined;

  const timestamp = Date.now();
  const className = `${target.name}${timestamp}`;
  const fileName = `${timestamp}-${target.name.replace(/(?<=[a-z0-9])(?=[A-Z])/g, '-').toLowerCase()}`;
  const path = join(target.directory, `${fileName}.ts`);
  await writeFile(path, await formatted(migrationSource(className, statements), path), { flag: 'wx' });
  const index = join(target.directory, 'index.ts');
  if (existsSync(index)) await appendFile(index, `export { ${className} } from './${fileName}.js';\n`);
  return path;
}

async function onSqlite(env: NodeJS.ProcessEnv): Promise<DialectStatements> {
  const dataDir = await mkdtemp(join(tmpdir(), 'migration-generate-'));
  try {
    const { DATABASE_URL: _url, DATABASE_SCHEMA: _schema, ...embedded } = env;
    const config = loadAppConfig({ ...embedded, DATA_DIR: dataDir });
    return await pendingStatements(buildDataSourceOptions(config));
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}

async function onPostgres(url: string, env: NodeJS.ProcessEnv): Promise<DialectStatements> {
  const schema = `migration_generate_${process.pid}_${Date.now()}`;
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`CREATE SCHEMA "${schema}"`);
    const config = loadAppConfig({ ...env, DATABASE_URL: url, DATABASE_SCHEMA: schema });
    return await pendingStatements(buildDataSourceOptions(config));
  } finally {
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await client.end();
  }
}

/** In the project's style when Prettier is installed (a development dependency), as written otherwise. */
async function formatted(source: string, path: string): Promise<string> {
  try {
    const prettier = await import('prettier');
    const options = await prettier.resolveConfig(path);
    return await prettier.format(source, { ...options, filepath: path });
  } catch {
    return source;
  }
}
