import type { DataSource, EntityManager } from 'typeorm';
import { QueryFailedError } from 'typeorm';
import { TransactionConflictError } from './transaction-conflict.js';
import { UnitOfWork } from './unit-of-work.js';

/** A PostgreSQL error as the pg driver reports it, wrapped by TypeORM. */
function pgError(code: string, message: string): QueryFailedError {
  return new QueryFailedError('UPDATE "products" ...', [], Object.assign(new Error(message), { code }));
}

/** A PostgreSQL DataSource whose transactions fail with the given errors, one per attempt, then commit. */
function fakePostgres(failures: QueryFailedError[]) {
  const attempts: string[] = [];
  const dataSource = {
    options: { type: 'postgres' },
    transaction: async <T>(work: (manager: EntityManager) => Promise<T>): Promise<T> => {
      const result = await work({} as EntityManager);
      const failure = failures.shift();
      attempts.push(failure ? 'rolled back' : 'committed');
      if (failure) throw failure;
      return result;
    },
  } as unknown as DataSource;
  return { unitOfWork: new UnitOfWork(dataSource), attempts };
}

describe('UnitOfWork on PostgreSQL: transactions that lose a race', () => {
  it.each([
    ['a deadlock (40P01)', '40P01', 'deadlock detected'],
    ['a serialization failure (40001)', '40001', 'could not serialize access due to concurrent update'],
  ])('runs the work once more after %s, and only the committed run’s after-commit tasks', async (_, code, message) => {
    const { unitOfWork, attempts } = fakePostgres([pgError(code, message)]);
    const afterCommit: number[] = [];
    let runs = 0;
    const result = await unitOfWork.run((tx) => {
      const run = ++runs;
      tx.afterCommit(() => Promise.resolve(afterCommit.push(run)));
      return Promise.resolve(`run ${run}`);
    });
    expect(result).toBe('run 2');
    expect(attempts).toEqual(['rolled back', 'committed']);
    expect(afterCommit).toEqual([2]);
  });

  it('answers a second conflict in a row with a 503 problem carrying Retry-After, and runs no after-commit task', async () => {
    const first = pgError('40P01', 'deadlock detected');
    const second = pgError('40001', 'could not serialize access');
    const { unitOfWork, attempts } = fakePostgres([first, second]);
    const afterCommit: string[] = [];
    const failure = await unitOfWork
      .run((tx) => Promise.resolve(tx.afterCommit(() => Promise.resolve(afterCommit.push('ran')))))
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(TransactionConflictError);
    const conflict = failure as TransactionConflictError;
    expect(conflict.status).toBe(503);
    expect(conflict.code).toBe('transaction-conflict');
    expect(conflict.headers['Retry-After']).toBe('1');
    expect(conflict.cause).toBe(second);
    expect(attempts).toEqual(['rolled back', 'rolled back']);
    expect(afterCommit).toEqual([]);
  });

  it('does not run the work again for any other failure', async () => {
    const unique = pgError('23505', 'duplicate key value violates unique constraint');
    const { unitOfWork, attempts } = fakePostgres([unique]);
    let runs = 0;
    await expect(unitOfWork.run(() => Promise.resolve(++runs))).rejects.toBe(unique);
    expect(runs).toBe(1);
    expect(attempts).toEqual(['rolled back']);
  });
});
