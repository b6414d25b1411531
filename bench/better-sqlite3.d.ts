/** The part of better-sqlite3's API the read floor uses (the package ships no types). */
declare module 'better-sqlite3' {
  export interface Statement<Row> {
    all(...parameters: unknown[]): Row[];
  }

  export default class Database {
    constructor(path: string, options?: { readonly?: boolean; fileMustExist?: boolean });
    prepare<Row = Record<string, unknown>>(sql: string): Statement<Row>;
    pragma(sql: string): unknown;
    close(): void;
  }
}
