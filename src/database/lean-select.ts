import type { DataSource, EntityMetadata, EntityTarget } from 'typeorm';
import { PreparedStatements } from './prepared-statements.js';

type ColumnMetadata = EntityMetadata['columns'][number];

type Hydrate = (value: unknown) => unknown;

/** Column types a driver returns as the entity holds them (without a transformer). */
const STRING_TYPES = new Set<unknown>(['varchar', 'character varying', 'text', String]);
const INTEGER_TYPES = new Set<unknown>(['integer', 'int', 'int4', Number]);
const TIMESTAMP_TYPES = new Set<unknown>(['datetime', 'timestamp', 'timestamp without time zone', Date]);

/**
 * A hot read without TypeORM's query building and entity hydration: the column list and table of one entity
 * escaped once, rows converted with a converter per column chosen once (the driver's own conversion where a
 * column needs more than a pass-through). On PostgreSQL the queries run as named prepared statements (see
 * {@link PreparedStatements}), elsewhere through the DataSource (better-sqlite3's statements are kept prepared by
 * TypeORM); either way the DataSource's logger sees them, like any other query. For entities without relations,
 * embedded columns or afterLoad listeners.
 */
export class LeanSelect<T extends object> {
  /** `"a" AS "a"`, …: each of the entity's columns under its property name (after the alias prefix, if any). */
  readonly selectList: readonly string[];
  /** {@link selectList}, comma-separated. */
  readonly columnList: string;
  /** `SELECT {@link columnList} FROM "table"`. */
  readonly selectFrom: string;
  private readonly metadata: EntityMetadata;
  private readonly columns: ReadonlyArray<{ property: string; alias: string; hydrate: Hydrate | undefined }>;
  private readonly prepared: PreparedStatements | undefined;

  /**
   * @param aliasPrefix put before each column's name in the rows the queries return (e.g. `e:`), for a statement that
   *   also selects another entity's columns: {@link toEntities} reads them back under their prefixed names.
   */
  constructor(
    private readonly dataSource: DataSource,
    target: EntityTarget<T>,
    aliasPrefix = '',
  ) {
    this.metadata = dataSource.getMetadata(target);
    if (this.metadata.relations.length > 0 || this.metadata.embeddeds.length > 0) {
      throw new Error(`LeanSelect: ${this.metadata.name} has relations or embedded columns`);
    }
    const listens = (s: { listenTo?(): unknown; afterLoad?: unknown }) =>
      s.afterLoad && (!s.listenTo || s.listenTo() === this.metadata.target);
    if (this.metadata.afterLoadListeners.length > 0 || dataSource.subscribers.some(listens)) {
      throw new Error(`LeanSelect: ${this.metadata.name} has afterLoad listeners, which lean reads would skip`);
    }
    const driver = dataSource.driver;
    const selected = this.metadata.columns.filter((column) => column.isSelect && !column.isVirtual);
    this.selectList = selected.map(
      (c) => `${driver.escape(c.databaseName)} AS ${driver.escape(aliasPrefix + c.propertyName)}`,
    );
    this.columnList = this.selectList.join(', ');
    this.selectFrom = `SELECT ${this.columnList} FROM ${this.table}`;
    this.columns = selected.map((column) => ({
      property: column.propertyName,
      alias: aliasPrefix + column.propertyName,
      hydrate: hydratorFor(dataSource, column),
    }));
    this.prepared = dataSource.options.type === 'postgres' ? new PreparedStatements(dataSource) : undefined;
  }

  /** The escaped table name (with its schema, if any). */
  get table(): string {
    return this.metadata.tablePath
      .split('.')
      .map((part) => this.dataSource.driver.escape(part))
      .join('.');
  }

  /** The escaped database name of the column behind a property. */
  column(property: string): string {
    const column = this.metadata.findColumnWithPropertyName(property);
    if (!column) throw new Error(`LeanSelect: ${this.metadata.name} has no column ${property}`);
    return this.dataSource.driver.escape(column.databaseName);
  }

  /** The driver's placeholder for the query's parameter at this index (from 0): `?` or `$1`. */
  parameter(index: number): string {
    return this.dataSource.driver.createParameter(`p${index}`, index);
  }

  /**
   * `column IN (…values)`, its values appended to `parameters`: on PostgreSQL `= ANY($n)` with one array parameter,
   * so that the text, and the prepared statement, is the same for any number of values.
   */
  oneOf(column: string, values: readonly unknown[], parameters: unknown[]): string {
    if (this.prepared) {
      parameters.push([...values]);
      return `${column} = ANY(${this.parameter(parameters.length - 1)})`;
    }
    const placeholders = values.map((_, i) => this.parameter(parameters.length + i)).join(', ');
    parameters.push(...values);
    return `${column} IN (${placeholders})`;
  }

  /** Runs a query of a few fixed texts (a prepared statement on PostgreSQL) and returns the driver's rows as they are. */
  raw(sql: string, parameters: readonly unknown[]): Promise<Array<Record<string, unknown>>> {
    return this.prepared ? this.prepared.query(sql, parameters) : this.dataSource.query(sql, [...parameters]);
  }

  /** Runs a query built from {@link selectFrom} and returns its rows as plain objects with the entity's values. */
  async plain(sql: string, parameters: readonly unknown[]): Promise<T[]> {
    const rows = await this.raw(sql, parameters);
    return rows.map((row) => this.hydrate(row));
  }

  /**
   * Converts a row of a query built from {@link selectFrom}, in place, into a plain object with the entity's values.
   */
  hydrate(row: Record<string, unknown>): T {
    for (const { alias, hydrate } of this.columns) if (hydrate) row[alias] = hydrate(row[alias]);
    return row as T;
  }

  /**
   * Whether two rows of queries built from {@link selectFrom}, read before {@link hydrate}, hold the same value in
   * every column: whether anything derived from the whole of one holds for the other, which then needs no
   * invalidation. Compared as the driver gave them: no conversion, no copy.
   */
  sameRow(a: Readonly<Record<string, unknown>>, b: Readonly<Record<string, unknown>>): boolean {
    for (const { alias } of this.columns) if (!sameValue(a[alias], b[alias])) return false;
    return true;
  }

  /** A copy of the entity's columns of a row (a statement's other columns left out), as the driver gave them. */
  copyRow(row: Readonly<Record<string, unknown>>): Record<string, unknown> {
    const copy: Record<string, unknown> = {};
    for (const { alias } of this.columns) copy[alias] = row[alias];
    return copy;
  }

  /** Runs a query built from {@link selectFrom} and returns its rows as entity instances, as TypeORM would. */
  async entities(sql: string, parameters: readonly unknown[]): Promise<T[]> {
    return this.toEntities(await this.raw(sql, parameters));
  }

  /** Rows of a query that selects {@link columnList} as entity instances; other columns they hold are left out. */
  toEntities(rows: ReadonlyArray<Record<string, unknown>>): T[] {
    const Target = this.metadata.target as new () => T;
    return rows.map((row) => {
      const entity = new Target() as Record<string, unknown>;
      for (const { property, alias, hydrate } of this.columns) {
        entity[property] = hydrate ? hydrate(row[alias]) : row[alias];
      }
      return entity as T;
    });
  }
}

/** Whether two values a driver gave for one column are the same: its Dates, Buffers and parsed JSON by value. */
function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (a instanceof Date || b instanceof Date) {
    return a instanceof Date && b instanceof Date && a.getTime() === b.getTime();
  }
  if (Buffer.isBuffer(a) || Buffer.isBuffer(b)) return Buffer.isBuffer(a) && Buffer.isBuffer(b) && a.equals(b);
  return JSON.stringify(a) === JSON.stringify(b);
}

/** undefined: the driver's value is the entity's. */
function hydratorFor(dataSource: DataSource, column: ColumnMetadata): Hydrate | undefined {
  const driver = dataSource.driver;
  const byDriver: Hydrate = (value) => driver.prepareHydratedValue(value, column) as unknown;
  if (column.transformer) return byDriver;
  if (STRING_TYPES.has(column.type)) return (value) => (typeof value === 'string' ? value : byDriver(value));
  if (INTEGER_TYPES.has(column.type)) return (value) => (Number.isSafeInteger(value) ? value : byDriver(value));
  if (TIMESTAMP_TYPES.has(column.type)) {
    const sqlite = dataSource.options.type === 'better-sqlite3';
    return (value) => {
      if (value instanceof Date) return value;
      const date = sqlite && typeof value === 'string' ? parseSqliteDatetime(value) : undefined;
      return date ?? byDriver(value);
    };
  }
  return byDriver;
}

const digit = (text: string, at: number): number => {
  const code = text.charCodeAt(at) - 48;
  return code >= 0 && code <= 9 ? code : NaN;
};
const number = (text: string, from: number, length: number): number => {
  let value = 0;
  for (let at = from; at < from + length; at++) value = value * 10 + digit(text, at);
  return value;
};

/**
 * How SQLite stores TypeORM's datetimes, UTC without a zone: `2026-01-31 12:00:00`, or with `.123` milliseconds.
 * The same Date as the SQLite driver makes of it (a 'T' and a 'Z' added, then parsed), read digit by digit;
 * undefined for anything else, which is left to the driver.
 */
export function parseSqliteDatetime(text: string): Date | undefined {
  const length = text.length;
  if (length !== 19 && length !== 23) return undefined;
  for (const [at, char] of SEPARATORS) if (text[at] !== char) return undefined;
  if (length === 23 && text[19] !== '.') return undefined;
  const year = number(text, 0, 4);
  const month = number(text, 5, 2);
  const day = number(text, 8, 2);
  const hours = number(text, 11, 2);
  const minutes = number(text, 14, 2);
  const seconds = number(text, 17, 2);
  const millis = length === 23 ? number(text, 20, 3) : 0;
  // NaN (a non-digit) fails every comparison; years below 100 would be read as 19xx by Date.UTC.
  if (!(year >= 100 && month >= 1 && month <= 12 && day >= 1 && day <= 31 && hours <= 23 && minutes <= 59)) {
    return undefined;
  }
  if (!(seconds <= 59 && millis >= 0)) return undefined;
  return new Date(Date.UTC(year, month - 1, day, hours, minutes, seconds, millis));
}

const SEPARATORS: ReadonlyArray<[number, string]> = [
  [4, '-'],
  [7, '-'],
  [10, ' '],
  [13, ':'],
  [16, ':'],
];
