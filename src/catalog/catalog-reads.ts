import type { DataSource, EntityTarget } from 'typeorm';
import { LeanSelect } from '../database/lean-select.js';
import type { JointFileSide } from '../files/index.js';

/** The page query's column with the number of all entities (PostgreSQL's COUNT is a bigint: a string). */
const PAGE_TOTAL = 'page_total';
/** Before each entity column's name in a joint read's rows, so that no file column has the same name. */
const ENTITY_ALIAS_PREFIX = 'e:';

type Row = Record<string, unknown>;

/**
 * The hot reads of one catalog entity type as lean queries: the SQL built once, rows straight into instances. For an
 * entity type with file fields, each read takes the entities' file records in the same statement (see
 * JointFileReads), so a response is one query: one round trip, one snapshot.
 */
export class CatalogReads<T extends object> {
  private readonly select: LeanSelect<T>;
  private readonly pageSql: string;
  private readonly countSql: string;
  private readonly byIdSql: string;
  /** The name of the entity's id column in the rows; NULL in a joint read's file rows. */
  private readonly idAlias: string;

  constructor(
    dataSource: DataSource,
    target: EntityTarget<T>,
    private readonly files?: JointFileSide,
  ) {
    if (dataSource.getMetadata(target).findColumnWithPropertyName(PAGE_TOTAL)) {
      throw new Error(`CatalogReads: a property named ${PAGE_TOTAL} would be shadowed by the page query's count`);
    }
    const prefix = files ? ENTITY_ALIAS_PREFIX : '';
    const select = (this.select = new LeanSelect(dataSource, target, prefix));
    this.idAlias = `${prefix}id`;
    const id = select.column('id');
    const parameter = (index: number) => select.parameter(index);
    // `? + 0` rather than `?`: SQLite (3.54) reads a bare LIMIT or OFFSET parameter's value to plan with, so binding
    // one expires the statement, and each run prepared it again (7 µs a query alone, about 35 µs under load).
    const window = (first: number) =>
      `ORDER BY ${id} ASC LIMIT ${parameter(first)} + 0 OFFSET ${parameter(first + 1)} + 0`;
    this.countSql = `SELECT COUNT(*) AS "total" FROM ${select.table}`;
    // The count rides along with the page, in the same statement (one round trip, one snapshot): the databases run
    // a subquery that refers to nothing outside it once, not once per row.
    const total = `(${this.countSql}) AS ${dataSource.driver.escape(PAGE_TOTAL)}`;
    const page = `SELECT ${select.columnList}, ${total} FROM ${select.table} ${window(0)}`;
    const byId = `${select.selectFrom} WHERE ${id} = ${parameter(0)}`;
    if (!files) {
      this.pageSql = page;
      this.byIdSql = byId;
      return;
    }
    // Parameters: the page's limit and offset, the attachment type, the same limit and offset again (SQLite's `?`
    // are bound in order); by id: the id, the attachment type, the id again.
    const width = select.selectList.length;
    const pageIds = `IN (SELECT ${id} FROM ${select.table} ${window(3)})`;
    this.pageSql =
      `SELECT page_rows.*, ${files.nullColumns} FROM (${page}) AS page_rows` +
      ` UNION ALL ${files.select(width + 1, parameter(2), pageIds)}`;
    this.byIdSql =
      `SELECT ${select.columnList}, ${files.nullColumns} FROM ${select.table} WHERE ${id} = ${parameter(0)}` +
      ` UNION ALL ${files.select(width, parameter(1), `= ${parameter(2)}`)}`;
  }

  /** The entities at `offset` in id order, at most `limit`, and the number of all of them. */
  async page(limit: number, offset: number): Promise<{ items: T[]; total: number }> {
    const parameters = this.files ? [limit, offset, this.files.attachmentType, limit, offset] : [limit, offset];
    const { entities, rows } = this.read(await this.select.raw(this.pageSql, parameters));
    // An empty page (past the end, or none at all) has no row to carry the count: it is counted on its own.
    const total = rows.length > 0 ? rows[0][PAGE_TOTAL] : (await this.select.raw(this.countSql, []))[0].total;
    return { items: entities, total: Number(total) };
  }

  async byId(id: number): Promise<T | null> {
    const parameters = this.files ? [id, this.files.attachmentType, id] : [id];
    const [entity] = this.read(await this.select.raw(this.byIdSql, parameters)).entities;
    return entity ?? null;
  }

  /** The entities of a read's rows, in id order; a joint read's file rows handed over to them. */
  private read(rows: Row[]): { entities: T[]; rows: Row[] } {
    if (!this.files) return { entities: this.select.toEntities(rows), rows };
    const entityRows: Row[] = [];
    const fileRows: Row[] = [];
    for (const row of rows) (row[this.idAlias] === null ? fileRows : entityRows).push(row);
    entityRows.sort((a, b) => (a[this.idAlias] as number) - (b[this.idAlias] as number));
    const entities = this.select.toEntities(entityRows);
    this.files.handOver(entities, fileRows as never[]);
    return { entities, rows: entityRows };
  }
}
