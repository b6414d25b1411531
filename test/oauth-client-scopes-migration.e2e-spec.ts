import { OAuthClient } from '../src/token/repositories/entities/oauth-client.entity.js';
import { OAuthClientScopes1763800017000 } from '../src/token/migrations/1763800017000-oauth-client-scopes.js';
import { authorizeUrl, openAuthorize, pkce, submitSignIn } from './support/authorization-code.js';
import { ADMIN_PASSWORD, startTestApp, type TestApp } from './support/test-app.js';

/** Clients registered before scope ceilings get an empty one: they obtain nothing until someone sets a ceiling. */
describe('Migration OAuthClientScopes1763800017000', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => t.close({ destroy: true }));

  it('gives existing clients an empty ceiling, so a sign-in there grants nothing', async () => {
    const migration = new OAuthClientScopes1763800017000();
    const runner = t.dataSource.createQueryRunner();
    const clientId = 'app_Xq3bV0m7hZ1kLw9pRt2sYa';
    try {
      await migration.down(runner);
      await runner.query(
        `INSERT INTO oauth_clients (client_id, name, redirect_uris, public, secret_hash, created_by)
         VALUES ('${clientId}', 'Legacy', '["https://legacy.example/cb"]', ${t.dataSource.options.type === 'postgres' ? 'true' : '1'}, NULL, 'user:1')`,
      );
      await migration.up(runner);
    } finally {
      await runner.release();
    }
    const legacy = await t.dataSource.getRepository(OAuthClient).findOneByOrFail({ clientId });
    expect(legacy).toMatchObject({ scopes: [], defaultScopes: null, previousSecretHash: null });
    const pending = await t.dataSource.driver.createSchemaBuilder().log();
    expect(pending.upQueries.map(({ query }) => query)).toEqual([]);

    const { challenge } = await pkce();
    const target = authorizeUrl(t.url, {
      client_id: clientId,
      redirect_uri: 'https://legacy.example/cb',
      code_challenge: challenge,
      code_challenge_method: 'S256',
    });
    const page = await openAuthorize(target);
    const answer = await submitSignIn(t.url, page, { username: 'admin', password: ADMIN_PASSWORD });
    expect(answer.location?.searchParams.get('error')).toBe('invalid_scope');
    expect(answer.location?.searchParams.has('code')).toBe(false);

    await t.http
      .patch(`/api/oauth/clients/${clientId}`)
      .send({ scopes: ['product:read'] })
      .expect(200);
    const read = await t.http.get(`/api/oauth/clients/${clientId}`).expect(200);
    expect(read.body).toMatchObject({ scopes: ['product:read'], default_scopes: ['product:read'] });
  });
});
