import request from 'supertest';
import { createIntegration, type CreatedIntegration } from './support/admin-api.js';
import { expectProblem } from './support/fixtures.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import { eventually, staysTrue } from './support/wait.js';

/*
 * The caches on the token path (verified tokens, integrations by access key, last use) never outlive a change: each
 * case warms them first, then changes the integration or its role and expects the very next request to see it. The
 * revocation cache lives for a minute here, so nothing can pass by waiting.
 */
describe('Caches on the token path', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ REVOCATION_CACHE_SECONDS: '60' });
  });
  afterAll(() => t?.close({ destroy: true }));

  const tokenRequest = (integration: CreatedIntegration, scope?: string) =>
    request(t.url)
      .post('/api/oauth/token')
      .send({
        grant_type: 'client_credentials',
        client_id: integration.access_key_id,
        client_secret: integration.secret_access_key,
        ...(scope === undefined ? {} : { scope }),
      });
  const tokenOf = async (integration: CreatedIntegration) =>
    ((await tokenRequest(integration).expect(200)).body as { access_token: string; scope: string }).access_token;
  const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
  const roleIdOf = async (integration: CreatedIntegration) => {
    const shown = (await t.http.get(`/api/integrations/${integration.id}`).expect(200)).body as { role: string };
    const roles = (await t.http.get('/api/roles?limit=100').expect(200)).body.items as Array<{
      id: number;
      name: string;
    }>;
    return roles.find((role) => role.name === shown.role)!.id;
  };

  it("refuses a disabled integration's token at once, though its verification is cached", async () => {
    const integration = await createIntegration(t, ['product:read']);
    const token = await tokenOf(integration);
    for (let i = 0; i < 3; i++) await request(t.url).get('/products').set(bearer(token)).expect(200);
    await t.http.patch(`/api/integrations/${integration.id}`).send({ active: false }).expect(200);
    expectProblem(await request(t.url).get('/products').set(bearer(token)), 401, 'invalid-token');
  });

  it('gives a disabled, deleted or rotated-away client no new token, though it is cached', async () => {
    const disabled = await createIntegration(t, ['product:read']);
    await tokenOf(disabled);
    await t.http.patch(`/api/integrations/${disabled.id}`).send({ active: false }).expect(200);
    await tokenRequest(disabled).expect(401);

    const deleted = await createIntegration(t, ['product:read']);
    await tokenOf(deleted);
    await t.http.delete(`/api/integrations/${deleted.id}`).expect(204);
    await tokenRequest(deleted).expect(401);

    const rotated = await createIntegration(t, ['product:read']);
    await tokenOf(rotated);
    await t.http.post(`/api/integrations/${rotated.id}/rotate-secret`).expect(200);
    await t.http.delete(`/api/integrations/${rotated.id}/previous-secret`).expect(200);
    await tokenRequest(rotated).expect(401);
  });

  it("narrows the next token's scope at once when the role is narrowed, and widens it when widened", async () => {
    const integration = await createIntegration(t, ['product:read', 'article:read']);
    expect((await tokenRequest(integration).expect(200)).body.scope).toBe('product:read article:read');
    const roleId = await roleIdOf(integration);

    await t.http
      .patch(`/api/roles/${roleId}`)
      .send({ permissions: ['product:read'] })
      .expect(200);
    expect((await tokenRequest(integration).expect(200)).body.scope).toBe('product:read');

    await t.http
      .patch(`/api/roles/${roleId}`)
      .send({ permissions: ['product:read', 'article:write'] })
      .expect(200);
    expect((await tokenRequest(integration).expect(200)).body.scope).toBe('product:read article:write');
  });

  it("gives the next token the integration's new role at once", async () => {
    const integration = await createIntegration(t, ['product:read']);
    await tokenOf(integration);
    await t.http
      .post('/api/roles')
      .send({ name: 'cache-writer', permissions: ['article:write'] })
      .expect(201);
    await t.http.patch(`/api/integrations/${integration.id}`).send({ role: 'cache-writer' }).expect(200);
    expect((await tokenRequest(integration).expect(200)).body.scope).toBe('article:write');
  });

  it('records last use after the answer, at most once a minute', async () => {
    const integration = await createIntegration(t, ['product:read']);
    await tokenOf(integration);
    const shown = () => t.http.get(`/api/integrations/${integration.id}`).expect(200);
    const first = await eventually('last_used_at to be recorded', async () => {
      const { last_used_at } = (await shown()).body as { last_used_at: string | null };
      return last_used_at ?? undefined;
    });
    await tokenOf(integration);
    await staysTrue(
      'last_used_at to stay as it was within the minute',
      async () => ((await shown()).body as { last_used_at: string }).last_used_at === first,
      300,
    );
  });
});
