import { closeSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import { getMetadataArgsStorage, type DataSourceOptions } from 'typeorm';
import type { AppConfig } from '../config/environment.js';
import { schemaRegistry } from '@file-fields/nest';

/**
 * The one DataSource definition, shared by the service and the TypeORM CLI (ormconfig.ts).
 * PostgreSQL when DATABASE_URL is set, otherwise an embedded SQLite file under DATA_DIR.
 * The schema only ever changes through migrations.
 */
export function buildDataSourceOptions(config: AppConfig): DataSourceOptions {
  const common = {
    entities: schemaRegistry.entities(),
    migrations: schemaRegistry.migrations(),
    synchronize: false,
    migrationsTransactionMode: 'each',
  } as const;
  useDialectTimestamps(config.databaseUrl ? 'postgres' : 'sqlite');
  if (config.databaseUrl) {
    const schema = config.databaseSchema;
    // The search_path makes raw SQL (migrations, health check) address the configured schema too.
    const extra = schema ? { options: `-c search_path=${schema}` } : undefined;
    return { type: 'postgres', url: config.databaseUrl, schema, extra, ...common };
  }
  // The database holds password hashes and token state: only the service's user may read it. SQLite creates the
  // -wal and -shm files with the database file's mode, so creating the file 0600 first covers them too.
  mkdirSync(dirname(config.sqlitePath), { recursive: true, mode: 0o700 });
  closeSync(openSync(config.sqlitePath, 'a', 0o600));
  return {
    type: 'better-sqlite3',
    database: config.sqlitePath,
    ...common,
    prepareDatabase: (db: { pragma(sql: string): unknown }) => {
      db.pragma('journal_mode = WAL');
      db.pragma('busy_timeout = 5000');
      db.pragma('foreign_keys = ON');
    },
  };
}

/**
 * Creation and update times are `timestamptz` on PostgreSQL (an instant, whatever a session's time zone), which the
 * migrations create; SQLite has no such type. Entities are written once, so the type is chosen here, per dialect,
 * before the DataSource reads the entities' metadata.
 */
function useDialectTimestamps(dialect: 'postgres' | 'sqlite'): void {
  for (const column of getMetadataArgsStorage().columns) {
    if (column.mode === 'createDate' || column.mode === 'updateDate') {
      column.options.type = dialect === 'postgres' ? 'timestamptz' : 'datetime';
    }
  }
}
