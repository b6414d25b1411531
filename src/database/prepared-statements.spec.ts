import { jest } from '@jest/globals';
import { QueryFailedError, type DataSource } from 'typeorm';
import { PreparedStatements } from './prepared-statements.js';

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

  it('is for PostgreSQL only', () => {
    const sqlite = { options: { type: 'better-sqlite3' } } as unknown as DataSource;
    expect(() => new PreparedStatements(sqlite)).toThrow(/PostgreSQL only/);
  });
});
