import { FilesAndCatalog1763800000000 } from './1763800000000-files-and-catalog.js';
import { tokenMigrations } from './token-migrations.js';
import { webhookMigrations } from './webhook-migrations.js';

const timestampOf = (migration: Function) => Number(/\d{13}$/.exec(migration.name)?.[0] ?? 0);

/** Every migration, ordered by its timestamp. The service runs them at start; the TypeORM CLI uses the same list. */
export const migrations = [FilesAndCatalog1763800000000, ...tokenMigrations, ...webhookMigrations].sort(
  (a, b) => timestampOf(a) - timestampOf(b),
);
