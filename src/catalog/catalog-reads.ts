import type { DataSource, EntityTarget } from 'typeorm';
import { LeanSelect } from '../database/lean-select.js';

/** The hot reads of one catalog entity type as lean queries: the SQL built once, rows straight into instances. */
export class CatalogReads<T extends object> {
  private readonly select: LeanSelect<T>;
  private readonly pageSql: string;
  private readonly countSql: string;
  private readonly byIdSql: string;

  constructor(dataSource: DataSource, target: EntityTarget<T>) {
    const select = (this.select = new LeanSelect(dataSource, target));
    const id = select.column('id');
    // `? + 0` rather than `?`: SQLite (3.54) reads a bare LIMIT or OFFSET parameter's value to plan with, so binding
    // one expires the statement, and each run prepared it again (7 µs a query alone, about 35 µs under load).
    const limit = `${select.parameter(0)} + 0`;
    const offset = `${select.parameter(1)} + 0`;
    this.pageSql = `${select.selectFrom} ORDER BY ${id} ASC LIMIT ${limit} OFFSET ${offset}`;
    this.countSql = `SELECT COUNT(*) AS "total" FROM ${select.table}`;
    this.byIdSql = `${select.selectFrom} WHERE ${id} = ${select.parameter(0)}`;
  }

  /** The entities at `offset` in id order, at most `limit`, and the number of all of them. */
  async page(limit: number, offset: number): Promise<{ items: T[]; total: number }> {
    const [items, counted] = await Promise.all([
      this.select.entities(this.pageSql, [limit, offset]),
      this.select.raw(this.countSql, []),
    ]);
    return { items, total: Number((counted[0] as { total: number | string }).total) };
  }

  async byId(id: number): Promise<T | null> {
    const [entity] = await this.select.entities(this.byIdSql, [id]);
    return entity ?? null;
  }
}
