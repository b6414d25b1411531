import type { DataSource } from 'typeorm';
import { dataChangesVersion } from './data-changes.js';

/** The part of a better-sqlite3 connection read here. */
interface SqliteConnection {
  readonly inTransaction: boolean;
  prepare(sql: string): { pluck(): { get(): unknown } };
}

/**
 * A text that names the state of the data kept answers are made from (the tables counted in `data_changes`, see
 * countChangesOf): when two reads of it give the same text, no change of those tables was committed in between, so a
 * query run between them read exactly what a query run at either moment would read. For answers kept and shown again
 * while nothing changed (see ReadCache), without telling them of each change: any such write, on any instance,
 * through any connection, ends their validity; the service's own bookkeeping does not.
 *
 * - better-sqlite3: no round trip, read once for all the callers that asked in the same turn of the event loop (see
 *   {@link batched}). Undefined inside an open transaction: a read there may see what the transaction has not
 *   committed and may still roll back.
 * - PostgreSQL: one round trip, shared by the callers that ask while it is under way (see {@link shared}).
 * - Other databases, or no `data_changes` table: undefined (nothing is kept).
 */
export class DataVersion {
  private readonly read: () => Promise<string | undefined>;

  constructor(dataSource: DataSource) {
    const query = dataChangesVersion(dataSource);
    switch (dataSource.options.type) {
      case 'better-sqlite3': {
        const connection = (dataSource.driver as unknown as { databaseConnection: SqliteConnection })
          .databaseConnection;
        let statement: { get(): unknown } | undefined;
        this.read = batched(() => {
          if (connection.inTransaction) return undefined;
          dataSource.logger.logQuery(query);
          statement ??= connection.prepare(query).pluck();
          return versionText(statement.get());
        });
        break;
      }
      case 'postgres': {
        this.read = shared(async () => {
          const [row] = await dataSource.query<Array<{ version?: unknown }>>(query);
          return versionText(row?.version);
        });
        break;
      }
      default:
        this.read = () => Promise.resolve(undefined);
    }
  }

  /** The version now; undefined when it cannot be told (then no answer may be kept), a failed read included. */
  async current(): Promise<string | undefined> {
    try {
      return await this.read();
    } catch {
      return undefined;
    }
  }
}

function versionText(version: unknown): string | undefined {
  return typeof version === 'string' || typeof version === 'number' || typeof version === 'bigint'
    ? String(version)
    : undefined;
}

/**
 * `read` (synchronous), run once for every caller that asked since the last run: the first caller schedules it for
 * the end of the event loop's turn (`setImmediate`), so every caller gets a version read after it asked. Under load
 * one read answers the requests of a whole turn, and their kept answers are written together: each read of SQLite
 * takes a read lock on the WAL index (two `fcntl` calls), which under load costs more than the rest of a kept answer.
 */
function batched(read: () => string | undefined): () => Promise<string | undefined> {
  let waiting: Array<(version: string | undefined) => void> | undefined;
  const run = () => {
    const callers = waiting ?? [];
    waiting = undefined;
    let version: string | undefined;
    try {
      version = read();
    } catch {
      version = undefined;
    }
    for (const resolve of callers) resolve(version);
  };
  return () =>
    new Promise((resolve) => {
      if (waiting) return void waiting.push(resolve);
      waiting = [resolve];
      setImmediate(run);
    });
}

/**
 * `read`, run at most once at a time: callers that ask while a run is under way share the next run, which starts once
 * that one has ended, so every caller gets a version read after it asked (a run already under way may have read
 * before a write the caller has seen committed). Under load one round trip answers many requests instead of one
 * round trip each.
 */
function shared(read: () => Promise<string | undefined>): () => Promise<string | undefined> {
  let waiting: Array<(version: string | undefined) => void> = [];
  let running = false;
  const run = async () => {
    running = true;
    while (waiting.length > 0) {
      const callers = waiting;
      waiting = [];
      const version = await read().catch(() => undefined);
      for (const resolve of callers) resolve(version);
    }
    running = false;
  };
  return () =>
    new Promise((resolve) => {
      waiting.push(resolve);
      if (!running) void run();
    });
}
