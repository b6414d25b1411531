import { DataSource } from 'typeorm';
import { countChangesOf } from './data-changes.js';
import { ReadCache, readKey } from './read-cache.js';

describe('ReadCache', () => {
  let dataSource: DataSource;
  let window: number;
  const cacheOf = (maxBytes = 33_554_432) => new ReadCache(dataSource, maxBytes, () => window);
  const write = () => dataSource.query('INSERT INTO "thing" ("name") VALUES (?)', ['x']);
  const bytes = (text: string) => text;

  beforeAll(async () => {
    dataSource = new DataSource({ type: 'better-sqlite3', database: ':memory:' });
    await dataSource.initialize();
    await dataSource.query('CREATE TABLE "thing" ("id" INTEGER PRIMARY KEY, "name" TEXT)');
    const runner = dataSource.createQueryRunner();
    await countChangesOf(runner, ['thing']);
    await runner.release();
  });
  afterAll(() => dataSource.destroy());
  beforeEach(() => {
    window = 1_000;
  });

  it('keeps an answer while the data stays the same, and drops every answer once it changes', async () => {
    const cache = cacheOf();
    const first = await cache.start('/things/1');
    expect(first.kept).toBeUndefined();
    await cache.keep(first, bytes('{"id":1}'));
    await cache.keep(await cache.start('/things/2'), bytes('{"id":2}'));
    expect((await cache.start('/things/1')).kept).toBe('{"id":1}');
    expect(cache.size).toBe(2);

    await write();
    expect((await cache.start('/things/1')).kept).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('does not keep an answer when a write was committed while it was being made', async () => {
    const cache = cacheOf();
    const start = await cache.start('/things/1');
    await write();
    await cache.keep(start, bytes('{"id":1,"stale":true}'));
    expect(cache.size).toBe(0);
    expect((await cache.start('/things/1')).kept).toBeUndefined();
  });

  it('keeps answers for one window of file URLs', async () => {
    const cache = cacheOf();
    await cache.keep(await cache.start('/things/1'), bytes('{}'));
    window += 3600;
    expect((await cache.start('/things/1')).kept).toBeUndefined();

    const start = await cache.start('/things/2');
    window += 3600;
    await cache.keep(start, bytes('{}'));
    expect(cache.size).toBe(0);
  });

  it('keeps nothing inside an open transaction', async () => {
    const cache = cacheOf();
    const runner = dataSource.createQueryRunner();
    await runner.startTransaction();
    try {
      const start = await cache.start('/things/1');
      expect(start.version).toBeUndefined();
      await cache.keep(start, bytes('{}'));
      expect(cache.size).toBe(0);
    } finally {
      await runner.rollbackTransaction();
      await runner.release();
    }
  });

  it('is bounded: the oldest answers make room, and an answer above a sixteenth of the bytes is not kept', async () => {
    const cache = cacheOf(1_600);
    for (const key of ['a', 'b', 'c', 'd', 'e']) await cache.keep(await cache.start(key), 'x'.repeat(100));
    expect(cache.size).toBe(5);
    for (let i = 0; i < 16; i++) await cache.keep(await cache.start(`more ${i}`), 'x'.repeat(100));
    expect(cache.size).toBe(16);
    expect((await cache.start('a')).kept).toBeUndefined();
    expect((await cache.start('more 15')).kept).toHaveLength(100);

    await cache.keep(await cache.start('big'), 'x'.repeat(101));
    expect((await cache.start('big')).kept).toBeUndefined();
  });

  it('replaces the answer kept for a key', async () => {
    const cache = cacheOf();
    await cache.keep(await cache.start('k'), bytes('1'));
    await cache.keep(await cache.start('k'), bytes('2'));
    expect(cache.size).toBe(1);
    expect((await cache.start('k')).kept).toBe('2');
  });

  it('counts hits, misses, and flushes of kept answers', async () => {
    const cache = cacheOf();
    await cache.keep(await cache.start('k'), '{}');
    await cache.start('k');
    await cache.start('k');
    await write();
    await cache.start('k');
    expect(cache.stats()).toEqual({ hits: 2, misses: 2, flushes: 1 });
  });

  it('keys answers by handler, permission set (in any order) and URL', () => {
    expect(readKey('1', ['b:read', 'a:read'], '/x')).toBe(readKey('1', ['a:read', 'b:read'], '/x'));
    expect(readKey('1', ['a:read'], '/x')).not.toBe(readKey('1', ['a:read', 'b:read'], '/x'));
    expect(readKey('1', undefined, '/x')).not.toBe(readKey('2', undefined, '/x'));
    expect(readKey('1', undefined, '/x')).not.toBe(readKey('1', undefined, '/y'));
  });

  it('is off with no bytes to keep answers in', () => {
    expect(cacheOf(0).enabled).toBe(false);
    expect(cacheOf().enabled).toBe(true);
  });
});
