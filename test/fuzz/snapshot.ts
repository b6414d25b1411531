import { createHash } from 'node:crypto';
import type { DataSource } from 'typeorm';

/**
 * Table → the digest of its rows (in no particular order) and their count; on SQLite the rows too (as sorted JSON
 * lines), to show what changed. PostgreSQL digests in the database, in one round trip per snapshot.
 */
export type Snapshot = Map<string, { digest: string; rows: number; lines?: string[] }>;

/**
 * Rows a refusal writes on purpose, left out of the comparison: the audit trail records a request refused with 403
 * (outcome `denied`) and a wrong password (outcome `failure`: a failed sign-in, a refused change of one's own
 * password); anything else it records on a 4xx is a change.
 */
const WRITTEN_ON_REFUSAL: Record<string, string> = {
  audit_events: `WHERE outcome NOT IN ('denied', 'failure')`,
};

/** Every table of the application's database (its schema on PostgreSQL), read through its own DataSource. */
export async function tablesOf(dataSource: DataSource): Promise<string[]> {
  const rows =
    dataSource.options.type === 'postgres'
      ? await dataSource.query<Array<{ name: string }>>(
          `SELECT tablename AS name FROM pg_tables WHERE schemaname = current_schema() ORDER BY tablename`,
        )
      : await dataSource.query<Array<{ name: string }>>(
          `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name`,
        );
  return rows.map((row) => row.name);
}

export async function snapshot(dataSource: DataSource, tables: string[]): Promise<Snapshot> {
  const result: Snapshot = new Map();
  if (dataSource.options.type === 'postgres') {
    const query = tables
      .map(
        (table) =>
          `SELECT '${table}' AS name, count(*)::int AS rows, ` +
          `md5(coalesce(string_agg(r::text, E'\\n' ORDER BY r::text), '')) AS digest ` +
          `FROM "${table}" r ${WRITTEN_ON_REFUSAL[table] ?? ''}`,
      )
      .join(' UNION ALL ');
    for (const row of await dataSource.query<Array<{ name: string; rows: number; digest: string }>>(query)) {
      result.set(row.name, { digest: row.digest, rows: row.rows });
    }
    return result;
  }
  for (const table of tables) {
    const rows = await dataSource.query<unknown[]>(`SELECT * FROM "${table}" ${WRITTEN_ON_REFUSAL[table] ?? ''}`);
    const lines = rows.map((row) => JSON.stringify(row)).sort();
    result.set(table, {
      digest: createHash('sha256').update(lines.join('\n')).digest('hex'),
      rows: lines.length,
      lines,
    });
  }
  return result;
}

/** The tables whose rows differ, each with a row it lost and one it gained (shortened) where the rows are known. */
export function changedTables(before: Snapshot, after: Snapshot): string[] {
  const changed: string[] = [];
  const short = (line: string | undefined) => (line && line.length > 300 ? `${line.slice(0, 300)}…` : line);
  for (const [table, was] of before) {
    const now = after.get(table);
    if (now?.digest === was.digest) continue;
    let rows = '';
    if (was.lines && now?.lines) {
      const kept = new Set(now.lines);
      const had = new Set(was.lines);
      const lost = was.lines.find((line) => !kept.has(line));
      const gained = now.lines.find((line) => !had.has(line));
      rows = `; lost ${short(lost) ?? 'none'}; gained ${short(gained) ?? 'none'}`;
    }
    changed.push(`${table} (${was.rows} → ${now?.rows ?? 0} rows${rows})`);
  }
  return changed;
}
