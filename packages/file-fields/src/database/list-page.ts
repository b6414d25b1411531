import { Brackets, type ObjectLiteral, type Repository, type SelectQueryBuilder } from 'typeorm';
import type { ColumnMetadata } from 'typeorm/metadata/ColumnMetadata.js';

/** A page of a collection: the envelope every list of the API answers. */
export interface Page<T> {
  items: T[];
  total: number;
  limit: number;
  offset: number;
}

/** What a client asks of a list (see `listQueryOf`): a page, a search, an order. */
export interface PageQuery {
  limit: number;
  offset: number;
  q?: string;
  /** A key of the list's `sorts`, descending with a leading `-`. */
  sort?: string;
}

/** How one list is searched and ordered, by entity property names. */
export interface ListSpec<T> {
  /** What `q` is looked for in: a case-insensitive substring of any of these. */
  search: ReadonlyArray<keyof T & string>;
  /** Sort keys as the API names them, and the property each orders by; ties are broken by id. */
  sorts: Readonly<Record<string, keyof T & string>>;
  /** Today's order, when the client asks none. */
  defaultSort: string;
}

/** Every `sort` value a list accepts: each key, ascending and descending. */
export function sortValuesOf(spec: ListSpec<never>): string[] {
  return Object.keys(spec.sorts).flatMap((key) => [key, `-${key}`]);
}

/** `%`, `_` and `\` match themselves: `q=%` looks for a percent sign. */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (character) => `\\${character}`);
}

/**
 * One page of `repository`'s rows matching `query.q`, in `query.sort` order then by id (the same direction, so that
 * an index on (column, id) serves both), and how many match. Text columns are compared and ordered in lower case,
 * so that "apple" and "Banana" sort as a person expects on SQLite and PostgreSQL alike. The statements are built once
 * per shape of query (see EntityReader).
 */
export async function findPage<T extends ObjectLiteral>(
  repository: Repository<T>,
  query: PageQuery,
  spec: ListSpec<T>,
): Promise<Page<T>> {
  const { limit, offset } = query;
  const q = query.q?.trim();
  const sort = query.sort ?? spec.defaultSort;
  if (!spec.sorts[sort.replace(/^-/, '')]) throw new Error(`Unknown sort "${sort}"`);
  const reader = EntityReader.of(repository);
  const values = q ? [`%${escapeLike(q.toLowerCase())}%`] : [];
  const matching = ([pattern]: unknown[]) => matchingRows(repository, spec, pattern);
  const items = await reader.many(`${sort} ${values.length} ${limit} ${offset}`, values, (placeholders) =>
    ordered(repository, spec, matching(placeholders), sort).limit(limit).offset(offset),
  );
  // A page short of its limit, not past the end, is the last one: its items give the total without a count.
  const last = items.length < limit && (items.length > 0 || offset === 0);
  const total = last ? offset + items.length : await reader.count(`${values.length}`, values, matching);
  return { items, total, limit, offset };
}

/** The rows whose searched properties hold `pattern` (all rows without one). */
function matchingRows<T extends ObjectLiteral>(
  repository: Repository<T>,
  spec: ListSpec<T>,
  pattern: unknown,
): SelectQueryBuilder<T> {
  const builder = repository.createQueryBuilder(EntityReader.ALIAS);
  if (pattern === undefined) return builder;
  // A list with nothing to search in has no match for any text.
  if (spec.search.length === 0) return builder.where('1 = 0');
  const anyOf = new Brackets((where) => {
    for (const property of spec.search) where.orWhere(`${columnOf(repository, property)} LIKE :pattern ESCAPE '\\'`);
  });
  return builder.where(anyOf, { pattern });
}

function ordered<T extends ObjectLiteral>(
  repository: Repository<T>,
  spec: ListSpec<T>,
  builder: SelectQueryBuilder<T>,
  sort: string,
): SelectQueryBuilder<T> {
  const direction = sort.startsWith('-') ? 'DESC' : 'ASC';
  const property = spec.sorts[sort.replace(/^-/, '')];
  if (property !== 'id') {
    // Empty values last on both databases (SQLite puts them first, PostgreSQL last by default); only where a column
    // can be empty, so that an index on a required column still serves the descending order.
    const nullable = repository.metadata.findColumnWithPropertyName(property)?.isNullable;
    builder.orderBy(columnOf(repository, property), direction, nullable ? 'NULLS LAST' : undefined);
  }
  return builder.addOrderBy(`${EntityReader.ALIAS}.id`, direction);
}

function columnOf(repository: Repository<ObjectLiteral>, property: string): string {
  const column = repository.metadata.findColumnWithPropertyName(property);
  if (!column) throw new Error(`${repository.metadata.name} has no property ${property}`);
  const name = `${EntityReader.ALIAS}.${column.propertyPath}`;
  return isText(column.type) ? `LOWER(${name})` : name;
}

function isText(type: unknown): boolean {
  return type === String || type === 'varchar' || type === 'text' || type === 'character varying';
}

/** What a reader of one entity type works out once: its statements by shape, and how its rows become entities. */
interface ReadPlan {
  statements: Map<string, Statement>;
  /** Each selected column with the name of its value in a row; undefined: rows are left to TypeORM. */
  columns: Array<[string, ColumnMetadata]> | undefined;
}

function planFor(repository: Repository<ObjectLiteral>): ReadPlan {
  const { metadata } = repository;
  const driver = repository.manager.connection.driver;
  const columns = metadata.columns
    .filter((column) => !column.isVirtual)
    .map((column): [string, ColumnMetadata] => [`${EntityReader.ALIAS}_${column.databaseName}`, column]);
  const shortened = columns.some(
    ([name]) => driver.maxAliasLength !== undefined && name.length > driver.maxAliasLength,
  );
  const listened =
    metadata.afterLoadListeners.length > 0 ||
    repository.manager.connection.subscribers.some((subscriber) => typeof subscriber.afterLoad === 'function');
  const plain = metadata.relations.length === 0 && metadata.childEntityMetadatas.length === 0;
  return { statements: new Map(), columns: shortened || listened || !plain ? undefined : columns };
}

/** A statement as TypeORM wrote it, and where the caller's values go among its parameters. */
interface Statement {
  sql: string;
  parameters: unknown[];
  /** For each parameter, the index of the caller's value that it is, or -1 (a value of the statement's own). */
  slots: number[];
}

/** Statements kept per reader: one per shape of query; a flood of shapes (limits, offsets) starts over. */
const MAX_STATEMENTS = 256;

/**
 * Entities of one repository read through SQL that TypeORM's query builder writes once per shape of query (the same
 * statement each time, only its values differ), their rows turned into entities here, column by column with the
 * driver's own conversions, as TypeORM's transformer does for a query without joins: building the query and the
 * generic transformer cost more than the statement itself on a read of a few rows. Falls back to the query builder
 * where that would not give the same entities (aliases the driver shortens, listeners of loaded entities).
 */
export class EntityReader<T extends ObjectLiteral> {
  /** The alias builders given to {@link many} and {@link count} select from. */
  static readonly ALIAS = 'row';
  private static readonly plans = new WeakMap<object, ReadPlan>();

  /**
   * The reader of a repository: its statements and columns are worked out once per DataSource and entity, and run
   * on this repository's manager (a transaction's, when it is one).
   */
  static of<T extends ObjectLiteral>(repository: Repository<T>): EntityReader<T> {
    let plan = EntityReader.plans.get(repository.metadata);
    if (!plan) EntityReader.plans.set(repository.metadata, (plan = planFor(repository)));
    return new EntityReader(repository, plan);
  }

  private get columns(): Array<[string, ColumnMetadata]> | undefined {
    return this.plan.columns;
  }

  private constructor(
    private readonly repository: Repository<T>,
    private readonly plan: ReadPlan,
  ) {}

  /**
   * The entities `build` selects: `shape` names the statement (the same shape, the same SQL), `values` are this
   * call's values, given to `build` as placeholders to pass where the query builder takes parameters.
   */
  async many(
    shape: string,
    values: readonly unknown[],
    build: (placeholders: unknown[]) => SelectQueryBuilder<T>,
  ): Promise<T[]> {
    if (!this.columns) return build([...values]).getMany();
    const rows = await this.run(`many ${shape}`, values, build);
    return rows.map((row) => this.entityOf(row, this.columns!));
  }

  /** How many rows `build` selects (a query without order, limit or offset). */
  async count(
    shape: string,
    values: readonly unknown[],
    build: (placeholders: unknown[]) => SelectQueryBuilder<T>,
  ): Promise<number> {
    const [row] = await this.run(`count ${shape}`, values, (placeholders) =>
      build(placeholders).select('COUNT(*)', 'count'),
    );
    return Number(row?.count ?? 0);
  }

  private async run(
    shape: string,
    values: readonly unknown[],
    build: (placeholders: unknown[]) => SelectQueryBuilder<T>,
  ): Promise<Array<Record<string, unknown>>> {
    const { statements } = this.plan;
    let statement = statements.get(shape);
    if (!statement) {
      statement = prepare(build, values.length);
      if (statements.size >= MAX_STATEMENTS) statements.clear();
      statements.set(shape, statement);
    }
    const parameters = statement.slots.map((slot, index) => (slot < 0 ? statement.parameters[index] : values[slot]));
    return this.repository.manager.query<Array<Record<string, unknown>>>(statement.sql, parameters);
  }

  private entityOf(row: Record<string, unknown>, columns: Array<[string, ColumnMetadata]>): T {
    const { metadata } = this.repository;
    const driver = this.repository.manager.connection.driver;
    const entity = metadata.create(undefined, { fromDeserializer: true }) as T;
    for (const [name, column] of columns) {
      const value = row[name];
      if (value !== undefined) column.setEntityValue(entity, driver.prepareHydratedValue(value, column));
    }
    return entity;
  }
}

/** The statement `build` writes, its parameters traced back to the caller's values through unique placeholders. */
function prepare<T extends ObjectLiteral>(
  build: (placeholders: unknown[]) => SelectQueryBuilder<T>,
  count: number,
): Statement {
  const placeholders = Array.from({ length: count }, (_, index) => `\u0000value ${index}\u0000`);
  const [sql, parameters] = build(placeholders).getQueryAndParameters();
  const slots = parameters.map((parameter) => placeholders.indexOf(parameter as string));
  return { sql, parameters, slots };
}
