import { RefreshToken } from '../src/token/repositories/entities/refresh-token.entity.js';
import { RefreshTokenClient1763800016000 } from '../src/token/migrations/1763800016000-refresh-token-client.js';
import { startTestApp, type TestApp } from './support/test-app.js';

/** Refresh tokens stored before they were bound to a client get one: the migration, run down and up over such rows. */
describe('Migration RefreshTokenClient1763800016000', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => t.close({ destroy: true }));

  it('binds existing refresh tokens to administration, or to the client whose code began their sign-in', async () => {
    const migration = new RefreshTokenClient1763800016000();
    const runner = t.dataSource.createQueryRunner();
    try {
      await migration.down(runner);
      const row = (hash: string, family: string) => `('${hash}', '${family}', 1, '*', 0, 9, 9)`;
      await runner.query(
        `INSERT INTO refresh_tokens (token_hash, family_id, user_id, scope, created_at, idle_expires_at,
           absolute_expires_at) VALUES ${[row('h1', 'f-admin'), row('h2', 'f-app'), row('h3', 'f-app')].join(', ')}`,
      );
      const code = (hash: string, client: string, family: string) =>
        `('${hash}', '${client}', 'https://x.example/cb', 'c', 1, '*', 0, 1, 1, '${family}')`;
      await runner.query(
        `INSERT INTO authorization_codes (code_hash, client_id, redirect_uri, code_challenge, user_id, scope,
           created_at, expires_at, used_at, family_id)
         VALUES ${[code('c1', 'administration', 'f-admin'), code('c2', 'app_Xq3bV0m7hZ1kLw9pRt2sYa', 'f-app')].join(', ')}`,
      );
      await runner.query(`INSERT INTO refresh_tokens (token_hash, family_id, user_id, scope, created_at,
        idle_expires_at, absolute_expires_at) VALUES ${row('h4', 'f-password')}`);
      await migration.up(runner);
    } finally {
      await runner.release();
    }
    const rows = await t.dataSource.getRepository(RefreshToken).find({ order: { tokenHash: 'ASC' } });
    // The administrator's sign-in made by the test app is bound to administration too.
    const made = rows.filter((row) => /^h\d$/.test(row.tokenHash));
    expect(rows.length - made.length).toBe(1);
    expect(rows.filter((row) => !made.includes(row)).map((row) => row.clientId)).toEqual(['administration']);
    expect(made.map((row) => [row.tokenHash, row.clientId])).toEqual([
      ['h1', 'administration'],
      ['h2', 'app_Xq3bV0m7hZ1kLw9pRt2sYa'],
      ['h3', 'app_Xq3bV0m7hZ1kLw9pRt2sYa'],
      ['h4', 'administration'],
    ]);
    // No default is left behind: a new token always names its client, and the schema matches the entity again.
    const pending = await t.dataSource.driver.createSchemaBuilder().log();
    expect(pending.upQueries.filter(({ query }) => query.includes('refresh_tokens'))).toEqual([]);
  });
});
