import { startTestApp, type TestApp } from './support/test-app.js';

/** Fails when an entity changes without a migration: TypeORM would then want to change the migrated schema. */
describe('Migrations', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => t.close({ destroy: true }));

  it('leave no difference between the entities and the migrated schema', async () => {
    const pending = await t.dataSource.driver.createSchemaBuilder().log();
    expect(pending.upQueries.map((query) => query.query)).toEqual([]);
  });

  it("are every feature's, each recorded once", async () => {
    const recorded = await t.dataSource.query<Array<{ name: string }>>('SELECT name FROM migrations ORDER BY id');
    expect(recorded.map((row) => row.name)).toEqual(t.dataSource.migrations.map((migration) => migration.name));
    expect(recorded.map((row) => row.name)).toEqual(
      expect.arrayContaining(['Catalog1763799999000', 'FilesAndCatalog1763800000000', 'Token1763800001000']),
    );
  });
});
