import { Product } from '../src/catalog/product.entity.js';
import type { MigrationInterface } from 'typeorm';
import { DataVersion, fileFieldsSchema } from '@file-fields/nest';
import { startTestApp, type TestApp } from './support/test-app.js';

/**
 * The counter of committed changes that kept answers depend on (issue 45, item 10). On PostgreSQL it was one row that
 * every commit touching products, articles or file records updated, holding its lock until the commit was flushed:
 * commits queued behind one another. Now each connection counts on a row of its own, and the version is their sum.
 * On SQLite (one writer at a time) it stays one row.
 */
describe('data_changes: counting commits without serializing them', () => {
  let t: TestApp;
  let version: DataVersion;
  const now = async () => BigInt((await version.current()) ?? NaN);

  beforeAll(async () => {
    t = await startTestApp();
    version = new DataVersion(t.dataSource);
  });
  afterAll(async () => {
    await t.close({ destroy: true });
  });

  it('lets a commit through while another transaction holds its count, and counts only what is committed', async () => {
    const postgres = t.dataSource.options.type === 'postgres';
    const create = async (name: string) =>
      (await t.http.post('/products').send({ name }).expect(201)).body.id as number;
    const [first, second, third] = [await create('held'), await create('passing'), await create('passing too')];
    const before = await now();

    // PostgreSQL: a transaction whose count has run (fired now rather than at its commit) and that stays open.
    const holding = postgres ? t.dataSource.createQueryRunner() : undefined;
    if (holding) {
      await holding.startTransaction();
      await holding.manager.update(Product, { id: first }, { description: 'counted, not yet committed' });
      await holding.query('SET CONSTRAINTS ALL IMMEDIATE');
    }
    try {
      const passing = t.dataSource.createQueryRunner();
      try {
        await passing.startTransaction();
        // With one row it would wait for the open transaction; fail instead of hanging the suite.
        if (postgres) await passing.query(`SET LOCAL lock_timeout = '20s'`);
        await passing.manager.update(Product, { id: second }, { description: 'two rows' });
        await passing.manager.update(Product, { id: third }, { description: 'one transaction' });
        await passing.commitTransaction();
      } finally {
        await passing.release();
      }
      const afterPassing = await now();
      // Each changed row of the committed transaction; nothing of the one not yet committed.
      expect(afterPassing - before).toBe(2n);
      if (holding) {
        await holding.commitTransaction();
        expect((await now()) - afterPassing).toBe(1n);
      }
    } finally {
      if (holding?.isTransactionActive) await holding.rollbackTransaction();
      await holding?.release();
    }

    // The answers show it: a read after the commits sees them.
    const product = (await t.http.get(`/products/${second}`).expect(200)).body as { description: string };
    expect(product.description).toBe('two rows');
  });

  it('keeps the version going on when the rows are folded back into one and spread again (the migration, down and up)', async () => {
    await t.http.post('/products').send({ name: 'counted' }).expect(201);
    const before = await now();
    const runner = t.dataSource.createQueryRunner();
    const Striped = fileFieldsSchema.migrations?.find(
      (migration) => migration.name === 'DataChangesStriped1763800017100',
    ) as (new () => MigrationInterface) | undefined;
    if (!Striped) throw new Error('the files migration that stripes the change counters is not in fileFieldsSchema');
    let single = before;
    try {
      await new Striped().down(runner);
      expect(await now()).toBe(before);
      await t.http.post('/products').send({ name: 'counted on one row' }).expect(201);
      single = await now();
      expect(single).toBe(before + 1n);
      await new Striped().up(runner);
      expect(await now()).toBe(single);
    } finally {
      await runner.release();
    }
    await t.http.post('/products').send({ name: 'counted on the rows again' }).expect(201);
    expect(await now()).toBe(single + 1n);
  });
});
