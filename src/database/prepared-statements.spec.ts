import { jest } from '@jest/globals';
import { QueryFailedError, type DataSource } from 'typeorm';
import pg from 'pg';
import { PreparedStatements, RememberedTimestamps } from './prepared-statements.js';

type Config = { name?: string; text: string; values: unknown[] };

/** A DataSource on PostgreSQL as PreparedStatements sees it, its pool answering with `answer`. */
function postgres(answer: (config: Config) => Promise<{ rows: Array<Record<string, unknown>> }>) {
  const query = jest.fn(answer);
  const logger = { logQuery: jest.fn(), logQueryError: jest.fn() };
  const dataSource = { options: { type: 'postgres' }, logger, driver: { master: { query } } };
  return { statements: new PreparedStatements(dataSource as unknown as DataSource), query, logger };
}

const stalePlan = () => Object.assign(new Error('cached plan must not change result type'), { code: '0A000' });

describe('PreparedStatements', () => {
  it('runs a text under one name derived from it, every time, and logs it', async () => {
    const { statements, query, logger } = postgres(() => Promise.resolve({ rows: [{ id: 1 }] }));
    expect(await statements.query('SELECT 1 WHERE $1', [true])).toEqual([{ id: 1 }]);
    await statements.query('SELECT 1 WHERE $1', [false]);
    await statements.query('SELECT 2', []);
    const [first, second, other] = query.mock.calls.map(([config]) => config);
    expect(first).toEqual({
      name: expect.stringMatching(/^lean_[\w-]{27}$/),
      text: 'SELECT 1 WHERE $1',
      values: [true],
      types: expect.any(RememberedTimestamps),
    });
    expect(second.name).toBe(first.name);
    expect(other.name).not.toBe(first.name);
    expect(logger.logQuery).toHaveBeenCalledWith('SELECT 1 WHERE $1', [true]);
  });

  it('runs a statement unnamed once its column types changed under it, instead of failing the read', async () => {
    const { statements, query, logger } = postgres((config) =>
      config.name ? Promise.reject(stalePlan()) : Promise.resolve({ rows: [{ id: 2 }] }),
    );
    expect(await statements.query('SELECT "id" FROM t WHERE "id" = $1', [2])).toEqual([{ id: 2 }]);
    expect(query.mock.calls.map(([config]) => config.name)).toEqual([expect.any(String), undefined]);
    expect(logger.logQueryError).not.toHaveBeenCalled();
  });

  it('fails other errors, and a stale plan that the unnamed run meets too, as TypeORM does', async () => {
    const failing = postgres(() =>
      Promise.reject(Object.assign(new Error('relation "t" does not exist'), { code: '42P01' })),
    );
    await expect(failing.statements.query('SELECT 1 FROM t', [])).rejects.toBeInstanceOf(QueryFailedError);
    expect(failing.query).toHaveBeenCalledTimes(1);
    expect(failing.logger.logQueryError).toHaveBeenCalledTimes(1);
    const stale = postgres(() => Promise.reject(stalePlan()));
    await expect(stale.statements.query('SELECT 1 FROM t', [])).rejects.toMatchObject({ code: '0A000' });
    expect(stale.query).toHaveBeenCalledTimes(2);
  });

  it('names at most 64 texts, and runs the others unnamed', async () => {
    const { statements, query } = postgres(() => Promise.resolve({ rows: [] }));
    for (let i = 0; i < 70; i++) await statements.query(`SELECT ${i}`, []);
    const names = query.mock.calls.map(([config]) => config.name);
    expect(names.slice(0, 64).every((name) => typeof name === 'string')).toBe(true);
    expect(new Set(names.slice(0, 64)).size).toBe(64);
    expect(names.slice(64)).toEqual(Array(6).fill(undefined));
  });

  it("parses timestamps with node-postgres's parser, once per text, each value a Date of its own", () => {
    const types = new RememberedTimestamps();
    const parse = types.getTypeParser(pg.types.builtins.TIMESTAMP) as (text: string) => unknown;
    const text = '2026-11-27 16:13:49.123456';
    const first = parse(text) as Date;
    const again = parse(text) as Date;
    expect(again).toEqual(pg.types.getTypeParser(pg.types.builtins.TIMESTAMP)(text));
    expect(again).not.toBe(first);
    expect(again.getTime()).toBe(first.getTime());
    const zoned = types.getTypeParser(pg.types.builtins.TIMESTAMPTZ) as (text: string) => unknown;
    expect(zoned('2026-11-27 16:13:49+02')).toEqual(new Date('2026-11-27T14:13:49Z'));
    expect(zoned('2026-11-27 16:13:49+03')).toEqual(new Date('2026-11-27T13:13:49Z'));
    expect(parse('infinity')).toBe(Infinity);
    // Its parser runs once per text.
    const original = pg.types.getTypeParser(pg.types.builtins.TIMESTAMP);
    const counted = jest.fn((value: string) => original(value) as Date);
    pg.types.setTypeParser(pg.types.builtins.TIMESTAMP, counted);
    try {
      const remembering = new RememberedTimestamps().getTypeParser(pg.types.builtins.TIMESTAMP);
      for (let i = 0; i < 3; i++) expect(remembering(text)).toEqual(first);
      expect(counted).toHaveBeenCalledTimes(1);
    } finally {
      pg.types.setTypeParser(pg.types.builtins.TIMESTAMP, original);
    }
    // Other types: node-postgres's parsers, as they are.
    expect(types.getTypeParser(pg.types.builtins.INT4)).toBe(pg.types.getTypeParser(pg.types.builtins.INT4));
  });

  it('is for PostgreSQL only', () => {
    const sqlite = { options: { type: 'better-sqlite3' } } as unknown as DataSource;
    expect(() => new PreparedStatements(sqlite)).toThrow(/PostgreSQL only/);
  });
});
