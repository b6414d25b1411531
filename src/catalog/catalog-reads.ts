import type { DataSource, EntityTarget } from 'typeorm';
import { LeanSelect } from '../database/lean-select.js';

/** The page query's column with the number of all entities (PostgreSQL's COUNT is a bigint: a string). */
const PAGE_TOTAL = 'page_total';

/** The hot reads of one catalog entity type as lean queries: the SQL built once, rows straight into instances. */
export class CatalogReads<T extends object> {
  private readonly select: LeanSelect<T>;
  private readonly pageSql: string;
  private readonly countSql: string;
  private readonly byIdSql: string;

  constructor(dataSource: DataSource, target: EntityTarget<T>) {
    if (dataSource.getMetadata(target).findColumnWithPropertyName(PAGE_TOTAL)) {
      throw new Error(`CatalogReads: a property named ${PAGE_TOTAL} would be shadowed by the page query's count`);
    }
    const select = (this.select = new LeanSelect(dataSource, target));
    const id = select.column('id');
    // `? + 0` rather than `?`: SQLite (3.54) reads a bare LIMIT or OFFSET parameter's value to plan with, so binding
    // one expires the statement, and each run prepared it again (7 µs a query alone, about 35 µs under load).
    const limit = `${select.parameter(0)} + 0`;
    const offset = `${select.parameter(1)} + 0`;
    this.countSql = `SELECT COUNT(*) AS "total" FROM ${select.table}`;
    // The count rides along with the page, in the same statement (one round trip, one snapshot): the databases run
    // a subquery that refers to nothing outside it once, not once per row.
    this.pageSql =
      `SELECT ${select.columnList}, (${this.countSql}) AS ${dataSource.driver.escape(PAGE_TOTAL)}` +
      ` FROM ${select.table} ORDER BY ${id} ASC LIMIT ${limit} OFFSET ${offset}`;
    this.byIdSql = `${select.selectFrom} WHERE ${id} = ${select.parameter(0)}`;
  }

  /** The entities at `offset` in id order, at most `limit`, and the number of all of them. */
  async page(limit: number, offset: number): Promise<{ items: T[]; total: number }> {
    const rows = await this.select.raw(this.pageSql, [limit, offset]);
    // An empty page (past the end, or none at all) has no row to carry the count: it is counted on its own.
    const total = rows.length > 0 ? rows[0][PAGE_TOTAL] : (await this.select.raw(this.countSql, []))[0].total;
    return { items: this.select.toEntities(rows), total: Number(total) };
  }

  async byId(id: number): Promise<T | null> {
    const [entity] = await this.select.entities(this.byIdSql, [id]);
    return entity ?? null;
  }
}
