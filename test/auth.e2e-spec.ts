import { jest } from '@jest/globals';
import request from 'supertest';
import { Clock } from '@file-fields/nest';
import { basic, createIntegration } from './support/admin-api.js';
import { expectProblem, PNG } from './support/fixtures.js';
import { passwordToken, startTestApp, type TestApp } from './support/test-app.js';
import { eventually } from './support/wait.js';

const TOKEN = '/api/oauth/token';

describe('Access control: bearer tokens on every route', () => {
  let t: TestApp;
  let clock: Clock;
  let productId: number;

  const tokenFor = async (id: string, secret: string, scope?: string): Promise<string> => {
    const res = await request(t.url)
      .post(TOKEN)
      .set('Authorization', basic(id, secret))
      .type('form')
      .send({ grant_type: 'client_credentials', ...(scope ? { scope } : {}) })
      .expect(200);
    return res.body.access_token as string;
  };
  const as = (token: string) => ({ Authorization: `Bearer ${token}` });

  beforeAll(async () => {
    t = await startTestApp({ TOKEN_FAILURES_PER_MINUTE: '1000' });
    clock = t.app.get(Clock);
    productId = (await t.http.post('/products').send({ name: 'guarded' }).expect(201)).body.id;
  });
  afterEach(() => jest.restoreAllMocks());
  afterAll(async () => t.close({ destroy: true }));

  it('401 with a Bearer challenge and a problem body without a token, with a bad token, or with a token in the query', async () => {
    for (const res of [
      await request(t.url).get('/products'),
      await request(t.url).get('/products').set('Authorization', 'Bearer not.a.jwt'),
      await request(t.url).get('/products').set('Authorization', 'Basic abc'),
      await request(t.url).get(
        `/products?access_token=${(await passwordToken(t.url, 'admin', 'e2e-admin-password')).access_token}`,
      ),
    ]) {
      expectProblem(res, 401, 'invalid-token');
      expect(res.headers['www-authenticate']).toMatch(/^Bearer realm="file-fields", error="invalid_token"/);
    }
  });

  it('keeps the token endpoint, discovery, docs and health public', async () => {
    await request(t.url).get('/health').expect(200);
    await request(t.url).get('/.well-known/jwks.json').expect(200);
    await request(t.url).get('/.well-known/oauth-authorization-server').expect(200);
    await request(t.url).get('/api/docs-json').expect(200);
  });

  it('lets a product:read integration read products but answers 403 insufficient_scope to writes', async () => {
    const integration = await createIntegration(t, ['product:read']);
    const token = await tokenFor(integration.access_key_id, integration.secret_access_key);
    await request(t.url).get(`/products/${productId}`).set(as(token)).expect(200);
    const upload = await request(t.url)
      .post(`/files/product/${productId}/cover`)
      .set(as(token))
      .attach('file', PNG, 'a.png');
    expectProblem(upload, 403, 'insufficient-scope');
    expect(upload.headers['www-authenticate']).toMatch(/error="insufficient_scope"/);
    expectProblem(await request(t.url).post('/products').set(as(token)).send({ name: 'x' }), 403, 'insufficient-scope');
    expectProblem(await request(t.url).get('/articles').set(as(token)), 403, 'insufficient-scope');
    expectProblem(await request(t.url).get('/api/integrations').set(as(token)), 403, 'insufficient-scope');
    const product = (await t.http.get(`/products/${productId}`).expect(200)).body;
    expect(product.cover).toBeNull();
  });

  it("needs the file's own <type>:read to read a file, and <type>:write to delete it", async () => {
    const file = (await t.http.post(`/files/product/${productId}/gallery`).attach('file', PNG, 'g.png').expect(201))
      .body;
    const articles = await createIntegration(t, ['article:read']);
    const products = await createIntegration(t, ['product:read']);
    const articleToken = await tokenFor(articles.access_key_id, articles.secret_access_key);
    const productToken = await tokenFor(products.access_key_id, products.secret_access_key);
    expectProblem(await request(t.url).get(`/files/${file.id}`).set(as(articleToken)), 404, 'file-not-found');
    expectProblem(await request(t.url).get(`/files/${file.id}/content`).set(as(articleToken)), 404, 'file-not-found');
    await request(t.url).get(`/files/${file.id}`).set(as(productToken)).expect(200);
    await request(t.url).get(`/files/${file.id}/content`).set(as(productToken)).expect(200);
    expectProblem(await request(t.url).delete(`/files/${file.id}`).set(as(productToken)), 403, 'insufficient-scope');
    expectProblem(await request(t.url).get(`/files/${file.id}`), 401, 'invalid-token');
  });

  it('narrows a token to the requested scope', async () => {
    const integration = await createIntegration(t, ['product:read', 'product:write']);
    const token = await tokenFor(integration.access_key_id, integration.secret_access_key, 'product:read');
    await request(t.url).get('/products').set(as(token)).expect(200);
    expectProblem(await request(t.url).post('/products').set(as(token)).send({ name: 'x' }), 403);
  });

  it('stops the live tokens of a disabled or deleted integration at once for good, and records last use', async () => {
    const integration = await createIntegration(t, ['product:read']);
    const token = await tokenFor(integration.access_key_id, integration.secret_access_key);
    await request(t.url).get('/products').set(as(token)).expect(200);
    // last_used_at is written after the answer (at most once a minute).
    const shown = await eventually('last_used_at to be recorded', async () => {
      const body = (await t.http.get(`/api/integrations/${integration.id}`).expect(200)).body;
      return body.last_used_at === null ? undefined : body;
    });
    expect(shown.last_used_at).toEqual(expect.any(String));
    expect(shown).not.toHaveProperty('secret_access_key');
    await t.http.patch(`/api/integrations/${integration.id}`).send({ active: false }).expect(200);
    expectProblem(await request(t.url).get('/products').set(as(token)), 401, 'invalid-token');
    await t.http.patch(`/api/integrations/${integration.id}`).send({ active: true }).expect(200);
    // Enabling it again does not bring the old token back; a new one works.
    expectProblem(await request(t.url).get('/products').set(as(token)), 401, 'invalid-token');
    const fresh = await tokenFor(integration.access_key_id, integration.secret_access_key);
    await request(t.url).get('/products').set(as(fresh)).expect(200);
    await t.http.delete(`/api/integrations/${integration.id}`).expect(204);
    expectProblem(await request(t.url).get('/products').set(as(fresh)), 401, 'invalid-token');
  });

  it('rejects an expired token (clock moved past an hour)', async () => {
    const integration = await createIntegration(t, ['product:read']);
    const token = await tokenFor(integration.access_key_id, integration.secret_access_key);
    const later = new Date(Date.now() + 3601 * 1000);
    jest.spyOn(clock, 'now').mockReturnValue(later);
    const res = await request(t.url).get('/products').set(as(token));
    expectProblem(res, 401, 'invalid-token');
    expect(res.headers['www-authenticate']).toMatch(/expired/);
  });

  it('keeps a rotated secret working through its grace period only', async () => {
    const integration = await createIntegration(t, ['product:read']);
    const rotated = (await t.http.post(`/api/integrations/${integration.id}/rotate-secret`).expect(200)).body;
    expect(rotated.secret_access_key).not.toBe(integration.secret_access_key);
    await tokenFor(integration.access_key_id, rotated.secret_access_key);
    await tokenFor(integration.access_key_id, integration.secret_access_key);
    jest.spyOn(clock, 'now').mockReturnValue(new Date(Date.now() + 86_401 * 1000));
    const stale = await request(t.url)
      .post(TOKEN)
      .set('Authorization', basic(integration.access_key_id, integration.secret_access_key))
      .send({ grant_type: 'client_credentials' });
    expect(stale.status).toBe(401);
  });

  it("ends a user's tokens and refresh tokens when the password changes or the user is deleted", async () => {
    await t.http
      .post('/api/users')
      .send({ username: 'editor', password: 'editor-password-1', role: 'admin' })
      .expect(201);
    const first = await passwordToken(t.url, 'editor', 'editor-password-1');
    await request(t.url).get('/products').set(as(first.access_token)).expect(200);
    const users = (await t.http.get('/api/users?q=editor').expect(200)).body.items as Array<{
      id: number;
      username: string;
    }>;
    const editor = users.find((u) => u.username === 'editor')!;
    await t.http.patch(`/api/users/${editor.id}`).send({ password: 'editor-password-2' }).expect(200);
    expectProblem(await request(t.url).get('/products').set(as(first.access_token)), 401, 'invalid-token');
    const refreshed = await request(t.url)
      .post(TOKEN)
      .send({ grant_type: 'refresh_token', client_id: 'administration', refresh_token: first.refresh_token });
    expect(refreshed.status).toBe(400);
    const second = await passwordToken(t.url, 'editor', 'editor-password-2');
    await request(t.url).get('/products').set(as(second.access_token)).expect(200);
    await t.http.delete(`/api/users/${editor.id}`).expect(204);
    expectProblem(await request(t.url).get('/products').set(as(second.access_token)), 401, 'invalid-token');
  });
});

describe('Administration API: roles, users, integrations', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => t.close({ destroy: true }));

  it('creates an integration whose secret is shown once and stored only hashed', async () => {
    await t.http
      .post('/api/roles')
      .send({ name: 'catalog-reader', permissions: ['product:read'] })
      .expect(201);
    const created = (await t.http.post('/api/integrations').send({ label: 'ERP', role: 'catalog-reader' }).expect(201))
      .body;
    expect(created).toMatchObject({
      label: 'ERP',
      role: 'catalog-reader',
      active: true,
      access_key_id: expect.stringMatching(/^FFIA[A-Z2-7]{20}$/),
    });
    expect(created.secret_access_key).toMatch(/^ffsk_[A-Za-z0-9_-]{43}$/);
    const listed = (await t.http.get('/api/integrations').expect(200)).body.items as Array<Record<string, unknown>>;
    expect(listed.length).toBeGreaterThan(0);
    expect(listed.every((i) => !('secret_access_key' in i))).toBe(true);
    const stored = await t.dataSource.getRepository('Integration').findOneByOrFail({ id: created.id });
    expect(JSON.stringify(stored)).not.toContain(created.secret_access_key);
  });

  it('validates roles, refuses changing the built-in admin role, and refuses deleting a role in use', async () => {
    const bad = await t.http.post('/api/roles').send({ name: 'x', permissions: ['product:delete'] });
    expectProblem(bad, 400, 'validation-failed');
    const roles = (await t.http.get('/api/roles?limit=100').expect(200)).body.items as Array<{
      id: number;
      name: string;
    }>;
    const admin = roles.find((r) => r.name === 'admin')!;
    expectProblem(await t.http.patch(`/api/roles/${admin.id}`).send({ permissions: [] }), 409, 'built-in-role');
    expectProblem(await t.http.delete(`/api/roles/${admin.id}`), 409, 'built-in-role');
    const role = (
      await t.http
        .post('/api/roles')
        .send({ name: 'temp', permissions: ['article:read'] })
        .expect(201)
    ).body;
    expectProblem(await t.http.post('/api/roles').send({ name: 'temp', permissions: [] }), 409, 'name-taken');
    const integration = (await t.http.post('/api/integrations').send({ label: 'uses temp', role: 'temp' }).expect(201))
      .body;
    expectProblem(await t.http.delete(`/api/roles/${role.id}`), 409, 'role-in-use');
    await t.http.delete(`/api/integrations/${integration.id}`).expect(204);
    await t.http.delete(`/api/roles/${role.id}`).expect(204);
    expectProblem(await t.http.get(`/api/roles/${role.id}`), 404, 'role-not-found');
  });

  it('404 for unknown ids and unknown role names, 400 for weak passwords', async () => {
    expectProblem(await t.http.get('/api/integrations/999'), 404, 'integration-not-found');
    expectProblem(await t.http.get('/api/users/999'), 404, 'user-not-found');
    expectProblem(await t.http.post('/api/integrations').send({ label: 'x', role: 'nope' }), 404, 'role-not-found');
    expectProblem(
      await t.http.post('/api/users').send({ username: 'u', password: 'short', role: 'admin' }),
      400,
      'validation-failed',
    );
    expectProblem(
      await t.http.post('/api/users').send({ username: 'admin', password: 'long-enough-pass', role: 'admin' }),
      409,
      'name-taken',
    );
  });
});
