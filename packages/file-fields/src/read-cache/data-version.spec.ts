import { jest } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { countChangesOf } from './data-changes.js';
import { DataVersion } from './data-version.js';

describe('DataVersion (better-sqlite3)', () => {
  let dir: string;
  let dataSource: DataSource;
  let version: DataVersion;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'data-version-'));
    dataSource = new DataSource({ type: 'better-sqlite3', database: join(dir, 'db.sqlite') });
    await dataSource.initialize();
    await dataSource.query('CREATE TABLE "thing" ("id" INTEGER PRIMARY KEY, "name" TEXT)');
    await dataSource.query('CREATE TABLE "bookkeeping" ("id" INTEGER PRIMARY KEY, "name" TEXT)');
    const runner = dataSource.createQueryRunner();
    await countChangesOf(runner, ['thing']);
    await runner.release();
    version = new DataVersion(dataSource);
  });

  afterAll(async () => {
    await dataSource.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  it('stays the same while nothing is written', async () => {
    const before = await version.current();
    await dataSource.query('SELECT * FROM "thing"');
    expect(before).toEqual(expect.any(String));
    expect(await version.current()).toBe(before);
  });

  it('stays the same while only tables that are not counted change', async () => {
    const before = await version.current();
    await dataSource.query('INSERT INTO "bookkeeping" ("name") VALUES (?)', ['audit row']);
    await dataSource.query('UPDATE "bookkeeping" SET "name" = ?', ['last used']);
    expect(await version.current()).toBe(before);
  });

  it("changes with each of the connection's own writes, deletes included", async () => {
    const before = await version.current();
    await dataSource.query('INSERT INTO "thing" ("name") VALUES (?)', ['a']);
    const inserted = await version.current();
    expect(inserted).not.toBe(before);
    await dataSource.query('UPDATE "thing" SET "name" = ?', ['b']);
    const updated = await version.current();
    expect(updated).not.toBe(inserted);
    await dataSource.query('DELETE FROM "thing"');
    expect(await version.current()).not.toBe(updated);
  });

  it('changes when another connection to the same file commits', async () => {
    const before = await version.current();
    const other = new DataSource({ type: 'better-sqlite3', database: String(dataSource.options.database) });
    await other.initialize();
    try {
      await other.query('INSERT INTO "thing" ("name") VALUES (?)', ['elsewhere']);
    } finally {
      await other.destroy();
    }
    expect(await version.current()).not.toBe(before);
  });

  it('reads once for the callers of one turn of the event loop, after the last of them asked', async () => {
    const before = await version.current();
    const logQuery = jest.spyOn(dataSource.logger, 'logQuery');
    try {
      const asked = [version.current(), version.current()];
      // Committed after both asked, in the same turn: the read they share must see it.
      await dataSource.query('INSERT INTO "thing" ("name") VALUES (?)', ['between']);
      const [first, second] = await Promise.all(asked);
      expect(first).not.toBe(before);
      expect(second).toBe(first);
      const versionReads = logQuery.mock.calls.filter(([sql]) => sql.includes('data_changes'));
      expect(versionReads).toHaveLength(1);
      expect(await version.current()).toBe(first);
      expect(logQuery.mock.calls.filter(([sql]) => sql.includes('data_changes'))).toHaveLength(2);
    } finally {
      logQuery.mockRestore();
    }
  });

  it('cannot be told inside an open transaction, whose writes may still roll back', async () => {
    const runner = dataSource.createQueryRunner();
    await runner.startTransaction();
    try {
      expect(await version.current()).toBeUndefined();
      await runner.query('INSERT INTO "thing" ("name") VALUES (?)', ['uncommitted']);
      expect(await version.current()).toBeUndefined();
    } finally {
      await runner.rollbackTransaction();
      await runner.release();
    }
    const after = await version.current();
    expect(after).toEqual(expect.any(String));
    expect(await version.current()).toBe(after);
  });
});

describe('DataVersion (other databases, or no counted table)', () => {
  it('cannot be told without a table of changes', async () => {
    const bare = new DataSource({ type: 'better-sqlite3', database: ':memory:' });
    await bare.initialize();
    try {
      expect(await new DataVersion(bare).current()).toBeUndefined();
    } finally {
      await bare.destroy();
    }
  });

  it('cannot be told on other databases', async () => {
    const mysql = { options: { type: 'mysql' } } as unknown as DataSource;
    expect(await new DataVersion(mysql).current()).toBeUndefined();
  });
});

describe('DataVersion (PostgreSQL)', () => {
  /** A DataSource whose queries answer when the test says so. */
  function fakePostgres() {
    const pending: Array<{ resolve(version: string): void; reject(error: Error): void }> = [];
    const query = jest.fn(
      () =>
        new Promise<Array<{ version: string }>>((resolve, reject) => {
          pending.push({ resolve: (version) => resolve([{ version }]), reject });
        }),
    );
    const dataSource = { options: { type: 'postgres' }, query } as unknown as DataSource;
    return { dataSource, query, pending };
  }
  const settle = () => new Promise((resolve) => setImmediate(resolve));

  it('gives callers that ask while a read is under way the next read, which starts after they asked', async () => {
    const { dataSource, query, pending } = fakePostgres();
    const version = new DataVersion(dataSource);
    const first = version.current();
    await settle();
    expect(query).toHaveBeenCalledTimes(1);
    const later = [version.current(), version.current(), version.current()];
    await settle();
    // The read under way may have read before a write these callers saw committed: they wait for another.
    expect(query).toHaveBeenCalledTimes(1);
    pending[0].resolve('10:10:');
    expect(await first).toBe('10:10:');
    await settle();
    expect(query).toHaveBeenCalledTimes(2);
    pending[1].resolve('11:11:');
    expect(await Promise.all(later)).toEqual(['11:11:', '11:11:', '11:11:']);
  });

  it('cannot be told when the read fails, and reads again for the next caller', async () => {
    const { dataSource, query, pending } = fakePostgres();
    const version = new DataVersion(dataSource);
    const failed = version.current();
    await settle();
    pending[0].reject(new Error('connection lost'));
    expect(await failed).toBeUndefined();
    const next = version.current();
    await settle();
    pending[1].resolve('12:12:');
    expect(await next).toBe('12:12:');
    expect(query).toHaveBeenCalledTimes(2);
  });
});
