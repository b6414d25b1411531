import { Injectable, Logger } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { isTransactionConflict, TransactionConflictError } from './transaction-conflict.js';

/** What a unit of work sees: its transaction's manager, and a way to act only once the transaction commits. */
export interface Transaction {
  readonly manager: EntityManager;
  /** Runs after commit (never after a rollback); a failure there is logged, not thrown. */
  afterCommit(task: () => Promise<unknown>): void;
  /** Whether row locks (SELECT ... FOR UPDATE) exist on this database. */
  readonly supportsRowLocks: boolean;
}

/** The last queued SQLite transaction of each DataSource, shared by every UnitOfWork instance on it. */
const tails = new WeakMap<DataSource, Promise<unknown>>();

/**
 * Runs writes in transactions. SQLite has one connection that TypeORM shares between callers, so there
 * transactions are queued one after another instead of nesting into each other as savepoints; the queue belongs to
 * the DataSource, so modules with their own UnitOfWork (the file-field framework) queue behind the same one.
 */
@Injectable()
export class UnitOfWork {
  private readonly logger = new Logger(UnitOfWork.name);
  constructor(private readonly dataSource: DataSource) {}

  get supportsRowLocks(): boolean {
    return this.dataSource.options.type === 'postgres';
  }

  /**
   * Runs `work` in a transaction, then its after-commit tasks. On PostgreSQL a transaction that deadlocks or fails to
   * serialize (40P01, 40001) was rolled back whole, so `work` runs once more in a new one; a second such failure is a
   * 503 with Retry-After (TransactionConflictError), never a 500. `work` must therefore act on the database only
   * through the transaction it is given, and leave anything else to afterCommit.
   */
  async run<T>(work: (tx: Transaction) => Promise<T>): Promise<T> {
    let tasks: Array<() => Promise<unknown>> = [];
    const transact = () => {
      tasks = [];
      return this.dataSource.transaction((manager) =>
        work({ manager, afterCommit: (task) => tasks.push(task), supportsRowLocks: this.supportsRowLocks }),
      );
    };
    const result = await (this.supportsRowLocks ? this.retryConflictOnce(transact) : this.serialize(transact));
    for (const task of tasks) {
      await task().catch((error: unknown) => this.logger.warn({ err: error }, 'After-commit task failed'));
    }
    return result;
  }

  /**
   * Reads that must agree with each other (a row and its children): one snapshot on PostgreSQL (REPEATABLE READ, so a
   * write committed between two of its queries is either wholly seen or not at all); on SQLite a transaction queued
   * like the writes, so it never runs between the statements of one.
   */
  read<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    if (this.supportsRowLocks) return this.dataSource.transaction('REPEATABLE READ', work);
    return this.serialize(() => this.dataSource.transaction(work));
  }

  private async retryConflictOnce<T>(transact: () => Promise<T>): Promise<T> {
    try {
      return await transact();
    } catch (error) {
      if (!isTransactionConflict(error)) throw error;
      this.logger.warn({ err: error }, 'Transaction conflict; running it once more');
    }
    try {
      return await transact();
    } catch (error) {
      if (isTransactionConflict(error)) throw new TransactionConflictError({ cause: error });
      throw error;
    }
  }

  private serialize<T>(fn: () => Promise<T>): Promise<T> {
    const run = (tails.get(this.dataSource) ?? Promise.resolve()).then(fn, fn);
    tails.set(
      this.dataSource,
      run.catch(() => undefined),
    );
    return run;
  }
}
