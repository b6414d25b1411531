import { createHash } from 'node:crypto';
import pg from 'pg';
import { QueryFailedError, type DataSource } from 'typeorm';

type TypeParsers = Pick<typeof pg.types, 'getTypeParser'>;

/** The part of node-postgres's Pool these queries use. */
interface PgPool {
  query(config: {
    name?: string;
    text: string;
    values: unknown[];
    types: TypeParsers;
  }): Promise<{ rows: Array<Record<string, unknown>> }>;
}

/** `timestamp` and `timestamptz`. */
const TIMESTAMP_TYPES = new Set<number>([pg.types.builtins.TIMESTAMP, pg.types.builtins.TIMESTAMPTZ]);
/** Timestamp texts remembered at most; all forgotten at once past that. */
const REMEMBERED_TIMESTAMPS = 4_096;

/**
 * node-postgres's own type parsers, with what its timestamp parser (postgres-date: a regular expression, then a
 * Date) makes of a text remembered: it took about 0.75 µs a value, 8 % of the CPU of a page of 50 products with their
 * files on PostgreSQL, whose rows give the same timestamps request after request. A Date is a function of its text
 * alone (and of the process's time zone, for a timestamp without one), so nothing needs invalidating; each value read
 * is a Date of its own.
 */
export class RememberedTimestamps implements TypeParsers {
  private readonly known = new Map<string, number>();
  private readonly wrapped = new WeakMap<Function, (text: string) => unknown>();

  getTypeParser: TypeParsers['getTypeParser'] = ((oid: number, format?: 'text' | 'binary') => {
    const parse = pg.types.getTypeParser(oid, format ?? 'text') as (value: unknown) => unknown;
    if (format === 'binary' || !TIMESTAMP_TYPES.has(oid)) return parse;
    let remembering = this.wrapped.get(parse);
    if (!remembering) this.wrapped.set(parse, (remembering = (text: string) => this.parse(parse, text)));
    return remembering;
  }) as TypeParsers['getTypeParser'];

  private parse(parse: (text: string) => unknown, text: string): unknown {
    const time = this.known.get(text);
    if (time !== undefined) return new Date(time);
    const value = parse(text);
    // Only real instants: postgres-date gives Infinity for 'infinity', and may give other things for other texts.
    if (value instanceof Date && Number.isFinite(value.getTime())) {
      if (this.known.size >= REMEMBERED_TIMESTAMPS) this.known.clear();
      this.known.set(text, value.getTime());
    }
    return value;
  }
}

/**
 * Texts named at most, per instance: the hot reads' SQL is built once per entity type, so a few. Past that a text
 * runs unnamed, so that neither this map nor the statements each connection keeps can grow without bound.
 */
const MAX_NAMED = 64;

/**
 * PostgreSQL's answer when a table's column changed type under a prepared statement ("cached plan must not change
 * result type", feature_not_supported): once per connection, after which it plans the statement anew.
 */
const STALE_PLAN = '0A000';

/**
 * Hot reads on PostgreSQL as named prepared statements (node-postgres's `name`): each pooled connection parses a
 * statement once and then only binds and runs it, where an unnamed statement is parsed, analysed and planned on every
 * run. PostgreSQL spent about 80 µs of CPU on a primary-key read unnamed, about 36 named.
 *
 * A statement's name is derived from its text, so every connection, and every instance, gives one text one name.
 * The statements select their columns by name, so a column that a migration adds elsewhere does not change their
 * result; PostgreSQL plans them again after any change to the tables they read. A connection pooler in between must
 * keep named statements per client connection (PgBouncer 1.21 and later: `max_prepared_statements`).
 *
 * Queries go to TypeORM's pool directly: they are logged through the DataSource's logger and fail with TypeORM's
 * QueryFailedError, as `DataSource.query` does, without its query runner's events (no subscriber of this service
 * listens to them).
 */
export class PreparedStatements {
  private readonly names = new Map<string, string>();
  private readonly types = new RememberedTimestamps();

  constructor(private readonly dataSource: DataSource) {
    if (dataSource.options.type !== 'postgres') throw new Error('PreparedStatements: PostgreSQL only');
  }

  async query(sql: string, parameters: readonly unknown[]): Promise<Array<Record<string, unknown>>> {
    const values = [...parameters];
    const logger = this.dataSource.logger;
    logger.logQuery(sql, values);
    const name = this.nameOf(sql);
    try {
      return await this.run(name, sql, values).catch((error: unknown) => {
        // Another instance's migration changed a column's type: this run is retried unnamed rather than failed.
        if (name === undefined || (error as { code?: unknown }).code !== STALE_PLAN) throw error;
        return this.run(undefined, sql, values);
      });
    } catch (error) {
      logger.logQueryError(error as Error, sql, values);
      throw new QueryFailedError(sql, values, error as Error);
    }
  }

  private async run(name: string | undefined, text: string, values: unknown[]) {
    const pool = (this.dataSource.driver as unknown as { master: PgPool }).master;
    return (await pool.query({ name, text, values, types: this.types })).rows;
  }

  /** `lean_` and 27 characters of the text's SHA-1 (within PostgreSQL's 63 bytes); undefined past the bound. */
  private nameOf(sql: string): string | undefined {
    let name = this.names.get(sql);
    if (name === undefined && this.names.size < MAX_NAMED) {
      name = `lean_${createHash('sha1').update(sql).digest('base64url')}`;
      this.names.set(sql, name);
    }
    return name;
  }
}
