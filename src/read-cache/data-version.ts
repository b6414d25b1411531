import type { DataSource } from 'typeorm';

/** The part of a better-sqlite3 connection read here. */
interface SqliteConnection {
  readonly inTransaction: boolean;
  prepare(sql: string): { raw(): { get(): unknown[] } };
}

/**
 * Both counters in one statement: the rows this connection changed since it opened (every write of the service: its
 * better-sqlite3 DataSource has one connection), and a number that changes when another connection (another process
 * on the same file: the command line, a second instance) commits a change.
 */
const SQLITE_VERSION = 'SELECT total_changes(), data_version FROM pragma_data_version';

/**
 * The snapshot a statement would read now, as text (`xmin:xmax:xip,…`): it changes with every transaction that wrote
 * and ended (committed or not), in any database of the cluster, and never comes back to an earlier text.
 */
const POSTGRES_VERSION = 'SELECT pg_current_snapshot()::text AS version';

/**
 * A text that names what the database shows: when two reads of it give the same text, nothing was committed in
 * between, so a query run between them read exactly what a query run at either moment would read. For answers kept
 * and shown again while nothing changed (see ReadCache), without telling them of each change: any write, on any
 * instance, through any connection, ends their validity.
 *
 * - better-sqlite3: `total_changes()` and `PRAGMA data_version`, no round trip, read once for all the callers that
 *   asked in the same turn of the event loop (see {@link batched}). Undefined inside an open transaction: a read there
 *   may see what the transaction has not committed and may still roll back.
 * - PostgreSQL (13 and later): `pg_current_snapshot()`, one round trip, shared by the callers that ask while it is
 *   under way (see {@link shared}).
 * - Other databases: always undefined (nothing is kept).
 */
export class DataVersion {
  private readonly read: () => Promise<string | undefined>;

  constructor(dataSource: DataSource) {
    switch (dataSource.options.type) {
      case 'better-sqlite3': {
        const connection = (dataSource.driver as unknown as { databaseConnection: SqliteConnection })
          .databaseConnection;
        const statement = connection.prepare(SQLITE_VERSION).raw();
        this.read = batched(() => {
          if (connection.inTransaction) return undefined;
          dataSource.logger.logQuery(SQLITE_VERSION);
          const [changes, version] = statement.get();
          return `${String(changes)}:${String(version)}`;
        });
        break;
      }
      case 'postgres': {
        this.read = shared(async () => {
          const [row] = await dataSource.query<Array<{ version?: unknown }>>(POSTGRES_VERSION);
          return typeof row?.version === 'string' ? row.version : undefined;
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

/**
 * `read` (synchronous), run once for every caller that asked since the last run: the first caller schedules it for
 * the end of the event loop's turn (`setImmediate`), so every caller gets a version read after it asked. Under load
 * one read answers the requests of a whole turn, and their kept answers are written together: a read of SQLite's
 * `data_version` takes a read lock on the WAL index (two `fcntl` calls), which under load costs more than the rest of
 * a kept answer.
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
