import request from 'supertest';
import { basic } from './support/admin-api.js';
import { expectProblem } from './support/fixtures.js';
import { ADMIN_PASSWORD, passwordToken, startTestApp, type TestApp } from './support/test-app.js';

const TOKEN = '/api/oauth/token';
const PASSWORD = 'a-long-enough-password';

/** The escalation rule of the administration API, and role changes that take effect at once. */
describe('Administration API: nobody grants more than they hold', () => {
  let t: TestApp;
  let seq = 0;
  const unique = (prefix: string) => `${prefix}-${++seq}`;

  const role = async (permissions: string[]) => {
    const name = unique('role');
    const res = await t.http.post('/api/roles').send({ name, permissions }).expect(201);
    return res.body as { id: number; name: string; permissions: string[] };
  };
  const integrationWith = async (permissions: string[]) => {
    const { name } = await role(permissions);
    const res = await t.http
      .post('/api/integrations')
      .send({ label: unique('int'), role: name })
      .expect(201);
    return res.body as { id: number; access_key_id: string; secret_access_key: string };
  };
  const clientToken = async (id: string, secret: string) =>
    (
      await request(t.url)
        .post(TOKEN)
        .set('Authorization', basic(id, secret))
        .type('form')
        .send({ grant_type: 'client_credentials' })
        .expect(200)
    ).body as { access_token: string; scope: string };
  /** An HTTP client acting as a fresh integration that holds exactly `permissions`. */
  const actingWith = async (permissions: string[]) => {
    const integration = await integrationWith(permissions);
    const { access_token } = await clientToken(integration.access_key_id, integration.secret_access_key);
    return { integration, as: request.agent(t.url).set('Authorization', `Bearer ${access_token}`) };
  };
  const userWith = async (permissions: string[]) => {
    const { name } = await role(permissions);
    const username = unique('user');
    const res = await t.http.post('/api/users').send({ username, password: PASSWORD, role: name }).expect(201);
    return { id: res.body.id as number, username, role: name };
  };
  const expectRefused = (res: request.Response, ...missing: string[]) => {
    const body = expectProblem(res, 403, 'privilege-escalation');
    expect(body.missing_permissions).toEqual(missing);
    for (const permission of missing) expect(body.detail).toContain(permission);
  };
  const refresh = (refreshToken: string, scope?: string) =>
    request(t.url)
      .post(TOKEN)
      .send({ grant_type: 'refresh_token', client_id: 'administration', refresh_token: refreshToken, scope });

  beforeAll(async () => {
    // Refresh tokens strictly single use: a reuse revokes the sign-in at once (the grace has its own suite).
    t = await startTestApp({ TOKEN_FAILURES_PER_MINUTE: '1000', REFRESH_REUSE_GRACE: '0' });
  });
  afterAll(async () => t.close({ destroy: true }));

  describe('integration:write', () => {
    it('cannot create an admin integration, nor move itself or another into a role it does not hold', async () => {
      const { integration, as } = await actingWith(['integration:read', 'integration:write']);
      expectRefused(await as.post('/api/integrations').send({ label: 'x', role: 'admin' }), '*');
      expectRefused(await as.patch(`/api/integrations/${integration.id}`).send({ role: 'admin' }), '*');
      const wider = await role(['integration:read', 'integration:write', 'product:write']);
      expectRefused(await as.patch(`/api/integrations/${integration.id}`).send({ role: wider.name }), 'product:write');
      const shown = (await t.http.get(`/api/integrations/${integration.id}`).expect(200)).body;
      expect(shown.role).not.toBe('admin');
      const all = (await t.http.get('/api/integrations?limit=100').expect(200)).body.items as Array<{ role: string }>;
      expect(all.filter((shown) => shown.role === 'admin')).toEqual([]);
    });

    it('cannot rotate, change, disable or delete an integration that holds more than it does', async () => {
      const { as } = await actingWith(['integration:read', 'integration:write']);
      const admin = await t.http.post('/api/integrations').send({ label: 'root', role: 'admin' }).expect(201);
      const id = admin.body.id as number;
      expectRefused(await as.post(`/api/integrations/${id}/rotate-secret`), '*');
      expectRefused(await as.patch(`/api/integrations/${id}`).send({ active: false }), '*');
      expectRefused(await as.delete(`/api/integrations/${id}/previous-secret`), '*');
      expectRefused(await as.delete(`/api/integrations/${id}`), '*');
      await clientToken(admin.body.access_key_id, admin.body.secret_access_key);
      expect((await t.http.get(`/api/integrations/${id}`).expect(200)).body.active).toBe(true);
    });

    it('still creates, rotates and deletes integrations within what it holds', async () => {
      const { as } = await actingWith(['integration:read', 'integration:write', 'product:read']);
      const reader = await role(['product:read']);
      const created = await as.post('/api/integrations').send({ label: 'reader', role: reader.name }).expect(201);
      await as.post(`/api/integrations/${created.body.id}/rotate-secret`).expect(200);
      await as.patch(`/api/integrations/${created.body.id}`).send({ label: 'renamed' }).expect(200);
      await as.delete(`/api/integrations/${created.body.id}`).expect(204);
    });
  });

  describe('role:write', () => {
    it('cannot widen its own role to * or create a role with permissions it lacks', async () => {
      const mine = await role(['role:read', 'role:write']);
      const integration = await t.http.post('/api/integrations').send({ label: 'r', role: mine.name }).expect(201);
      const { access_token } = await clientToken(integration.body.access_key_id, integration.body.secret_access_key);
      const as = request.agent(t.url).set('Authorization', `Bearer ${access_token}`);
      expectRefused(await as.patch(`/api/roles/${mine.id}`).send({ permissions: ['*'] }), '*');
      expectRefused(
        await as.post('/api/roles').send({ name: unique('r'), permissions: ['product:write', 'role:read'] }),
        'product:write',
      );
      const other = await role(['product:read']);
      expectRefused(await as.patch(`/api/roles/${other.id}`).send({ name: unique('renamed') }), 'product:read');
      expectRefused(await as.delete(`/api/roles/${other.id}`), 'product:read');
      expect((await t.http.get(`/api/roles/${mine.id}`).expect(200)).body.permissions).toEqual([
        'role:read',
        'role:write',
      ]);
      await as
        .post('/api/roles')
        .send({ name: unique('r'), permissions: ['role:read'] })
        .expect(201);
    });

    it('keeps the built-in admin role unchangeable even for a * holder', async () => {
      const roles = (await t.http.get('/api/roles?q=admin').expect(200)).body.items as Array<{
        id: number;
        name: string;
      }>;
      const admin = roles.find((r) => r.name === 'admin')!;
      expectProblem(await t.http.patch(`/api/roles/${admin.id}`).send({ permissions: ['product:read'] }), 409);
      expectProblem(await t.http.delete(`/api/roles/${admin.id}`), 409);
    });
  });

  describe('user:write', () => {
    it('cannot create an admin, promote a user, or reset the administrator password', async () => {
      const { as } = await actingWith(['user:read', 'user:write', 'product:read']);
      expectRefused(
        await as.post('/api/users').send({ username: unique('u'), password: PASSWORD, role: 'admin' }),
        '*',
      );
      const editor = await userWith(['product:read']);
      expectRefused(await as.patch(`/api/users/${editor.id}`).send({ role: 'admin' }), '*');
      expectRefused(await as.patch('/api/users/1').send({ password: 'attacker-password-1' }), '*');
      expectRefused(await as.delete('/api/users/1'), '*');
      await passwordToken(t.url, 'admin', ADMIN_PASSWORD);
      expect((await t.http.get(`/api/users/${editor.id}`).expect(200)).body.role).toBe(editor.role);
      await as.patch(`/api/users/${editor.id}`).send({ password: 'a-new-long-password' }).expect(200);
      await as
        .post('/api/users')
        .send({ username: unique('u'), password: PASSWORD, role: editor.role })
        .expect(201);
    });

    it('never removes or demotes the last user holding *', async () => {
      const admin = (await t.http.get('/api/users/1').expect(200)).body;
      expect(admin.role).toBe('admin');
      const plain = await role(['product:read']);
      expectProblem(await t.http.patch('/api/users/1').send({ role: plain.name }), 409, 'last-administrator');
      expectProblem(await t.http.delete('/api/users/1'), 409, 'last-administrator');
      const second = await t.http
        .post('/api/users')
        .send({ username: unique('root'), password: PASSWORD, role: 'admin' })
        .expect(201);
      const root = await passwordToken(t.url, second.body.username, PASSWORD);
      const asRoot = request.agent(t.url).set('Authorization', `Bearer ${root.access_token}`);
      await asRoot.patch('/api/users/1').send({ role: plain.name }).expect(200);
      expectProblem(await asRoot.delete(`/api/users/${second.body.id}`), 409, 'last-administrator');
      await asRoot.patch('/api/users/1').send({ role: 'admin' }).expect(200);
      // The role changes ended the administrator's token: sign in again for the tests that follow.
      const again = await passwordToken(t.url, 'admin', ADMIN_PASSWORD);
      t.http = request.agent(t.url).set('Authorization', `Bearer ${again.access_token}`);
    });
  });

  describe('role changes take effect at once', () => {
    it("ends a user's live token when the user's role changes, and refresh follows the new role", async () => {
      const user = await userWith(['product:read', 'product:write']);
      const signIn = await passwordToken(t.url, user.username, PASSWORD);
      const as = () => request(t.url).post('/products').set('Authorization', `Bearer ${signIn.access_token}`);
      await as().send({ name: 'before' }).expect(201);
      const reader = await role(['product:read']);
      await t.http.patch(`/api/users/${user.id}`).send({ role: reader.name }).expect(200);
      expectProblem(await as().send({ name: 'after' }), 401, 'invalid-token');
      const refreshed = await refresh(signIn.refresh_token!).expect(200);
      expect(refreshed.body.scope).toBe('product:read');
      const res = await request(t.url)
        .post('/products')
        .set('Authorization', `Bearer ${refreshed.body.access_token}`)
        .send({ name: 'again' });
      expectProblem(res, 403, 'insufficient-scope');
    });

    it('ends the live tokens of every holder when a role is narrowed', async () => {
      const shared = await role(['product:read', 'product:write']);
      const username = unique('user');
      await t.http.post('/api/users').send({ username, password: PASSWORD, role: shared.name }).expect(201);
      const integration = await t.http.post('/api/integrations').send({ label: 'n', role: shared.name }).expect(201);
      const signIn = await passwordToken(t.url, username, PASSWORD);
      const client = await clientToken(integration.body.access_key_id, integration.body.secret_access_key);
      expect(client.scope).toBe('product:read product:write');
      await t.http
        .patch(`/api/roles/${shared.id}`)
        .send({ permissions: ['product:read'] })
        .expect(200);
      for (const token of [signIn.access_token, client.access_token]) {
        expectProblem(await request(t.url).get('/products').set('Authorization', `Bearer ${token}`), 401);
      }
      expect((await refresh(signIn.refresh_token!).expect(200)).body.scope).toBe('product:read');
      const again = await clientToken(integration.body.access_key_id, integration.body.secret_access_key);
      expect(again.scope).toBe('product:read');
      await request(t.url).get('/products').set('Authorization', `Bearer ${again.access_token}`).expect(200);
    });

    it('checks a refresh request before spending its token, so a corrected retry is not reuse', async () => {
      const user = await userWith(['product:read', 'article:read']);
      const res = await request(t.url).post(TOKEN).send({
        grant_type: 'password',
        client_id: 'administration',
        username: user.username,
        password: PASSWORD,
        scope: 'product:read',
      });
      const refreshToken = res.body.refresh_token as string;
      const refused = await refresh(refreshToken, 'article:read').expect(400);
      expect(refused.body.error).toBe('invalid_scope');
      const retried = await refresh(refreshToken).expect(200);
      expect(retried.body.scope).toBe('product:read');
      await refresh(retried.body.refresh_token as string).expect(200);
    });

    it("ends a sign-in's access tokens when reuse of its refresh token revokes it", async () => {
      const user = await userWith(['product:read']);
      const signIn = await passwordToken(t.url, user.username, PASSWORD);
      const next = (await refresh(signIn.refresh_token!).expect(200)).body;
      const get = (token: string) => request(t.url).get('/products').set('Authorization', `Bearer ${token}`);
      await get(next.access_token).expect(200);
      expect((await refresh(signIn.refresh_token!).expect(400)).body.error).toBe('invalid_grant');
      expectProblem(await get(signIn.access_token), 401, 'invalid-token');
      expectProblem(await get(next.access_token), 401, 'invalid-token');
      const elsewhere = await passwordToken(t.url, user.username, PASSWORD);
      await get(elsewhere.access_token).expect(200);
    });

    it("expires a rotated integration's previous secret on request", async () => {
      const integration = await integrationWith(['product:read']);
      const rotated = await t.http.post(`/api/integrations/${integration.id}/rotate-secret`).expect(200);
      await clientToken(integration.access_key_id, integration.secret_access_key);
      const ended = await t.http.delete(`/api/integrations/${integration.id}/previous-secret`).expect(200);
      expect(ended.body.previous_secret_expires_at).toBeNull();
      const old = await request(t.url)
        .post(TOKEN)
        .set('Authorization', basic(integration.access_key_id, integration.secret_access_key))
        .type('form')
        .send({ grant_type: 'client_credentials' });
      expect(old.status).toBe(401);
      expect(old.body.error).toBe('invalid_client');
      await clientToken(integration.access_key_id, rotated.body.secret_access_key);
    });
  });
});
