import type { EntityManager } from 'typeorm';
import type { Transaction, UnitOfWork } from '../../database/unit-of-work.js';
import { Clock } from '../clock.js';

/*
 * Stand-ins shared by the modules' unit specs (no database). Each module's testing/ folder adds the fakes of its own
 * repositories on top.
 */

/** The public methods of a class (its private fields make the class itself impossible to implement). */
export type Public<T> = { [K in keyof T]: T[K] };

/** A copy of an entity with its class kept, as a database hands out: changing it changes nothing stored. */
export const copyRow = <T extends object>(row: T): T =>
  Object.assign(Object.create(Object.getPrototypeOf(row) as object) as T, structuredClone({ ...row }));

/** Hands a fake to a constructor that expects the real class (checked against the class's public methods). */
export function asReal<T>(fake: Public<NoInfer<T>>): T {
  const real: unknown = fake;
  return real as T;
}

/**
 * Runs work at once, with no rollback: enough for parts whose every refusal happens before their first write.
 * After-commit tasks run when the work succeeds, as with the real unit of work.
 */
export class FakeUnitOfWork implements Public<UnitOfWork> {
  readonly supportsRowLocks = false;

  async run<T>(work: (tx: Transaction) => Promise<T>): Promise<T> {
    const tasks: Array<() => Promise<unknown>> = [];
    const manager = {} as EntityManager;
    const result = await work({ manager, afterCommit: (task) => tasks.push(task), supportsRowLocks: false });
    for (const task of tasks) await task();
    return result;
  }

  read<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return work({} as EntityManager);
  }
}

/** A clock that moves only when told. */
export class FakeClock extends Clock {
  constructor(private ms = Date.UTC(2026, 0, 1)) {
    super();
  }

  override now(): Date {
    return new Date(this.ms);
  }

  advance(ms: number): void {
    this.ms += ms;
  }
}
