import request from 'supertest';
import { expectProblem } from './support/fixtures.js';
import { passwordToken, startTestApp, type TestApp } from './support/test-app.js';

const CLIENTS = '/api/oauth/clients';
const CALLBACK = 'https://shop.example/oauth/callback';

describe('Registered OAuth clients: /api/oauth/clients', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => t.close({ destroy: true }));

  /** A user holding `permissions`, signed in; its agent sends the token. */
  async function userWith(permissions: string[]) {
    const name = `u${Math.random().toString(36).slice(2, 10)}`;
    await t.http.post('/api/roles').send({ name, permissions }).expect(201);
    await t.http
      .post('/api/users')
      .send({ username: name, password: 'a long enough password', role: name })
      .expect(201);
    const { access_token } = await passwordToken(t.url, name, 'a long enough password');
    return request.agent(t.url).set('Authorization', `Bearer ${access_token}`);
  }

  it('registers a confidential client, showing its secret once, then reads, lists, changes and deletes it', async () => {
    const created = await t.http
      .post(CLIENTS)
      .send({ name: 'Shop front', redirect_uris: [CALLBACK], public: false, scopes: ['*'] })
      .expect(201);
    expect(created.body).toEqual({
      client_id: expect.stringMatching(/^app_[A-Za-z0-9_-]{22}$/),
      name: 'Shop front',
      redirect_uris: [CALLBACK],
      public: false,
      scopes: ['*'],
      default_scopes: ['*'],
      client_secret: expect.stringMatching(/^ffcs_[A-Za-z0-9_-]{43}$/),
      created_by: 'user:1',
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const id = created.body.client_id as string;
    const read = await t.http.get(`${CLIENTS}/${id}`).expect(200);
    expect(read.body).not.toHaveProperty('client_secret');
    expect(JSON.stringify(read.body)).not.toContain(created.body.client_secret);

    const list = await t.http.get(CLIENTS).query({ limit: 1, offset: 0 }).expect(200);
    expect(list.body).toMatchObject({ total: expect.any(Number), limit: 1, offset: 0 });
    expect(list.body.items).toHaveLength(1);
    expect(JSON.stringify(list.body)).not.toContain('client_secret');
    expect(JSON.stringify(list.body)).not.toContain('"administration"');

    const local = [
      'http://127.0.0.1:8123/cb',
      'http://localhost/cb',
      'http://[::1]:3000/cb',
      'https://a.example/x?y=1',
    ];
    const changed = await t.http.patch(`${CLIENTS}/${id}`).send({ name: 'Shop', redirect_uris: local }).expect(200);
    expect(changed.body).toMatchObject({
      client_id: id,
      name: 'Shop',
      redirect_uris: local,
      public: false,
      scopes: ['*'],
    });

    const events = await t.http.get('/api/audit-events').query({ target_type: 'oauth-client', target_id: id });
    expect(events.body.items.map((event: { action: string }) => event.action).sort()).toEqual([
      'oauth-client.create',
      'oauth-client.update',
    ]);

    await t.http.delete(`${CLIENTS}/${id}`).expect(204);
    expectProblem(await t.http.get(`${CLIENTS}/${id}`), 404, 'oauth-client-not-found');
    expectProblem(await t.http.delete(`${CLIENTS}/${id}`), 404, 'oauth-client-not-found');
  });

  it('registers a public client without a secret, and has none to rotate', async () => {
    const created = await t.http
      .post(CLIENTS)
      .send({ name: 'Mobile app', redirect_uris: ['http://127.0.0.1/callback'], public: true, scopes: ['*'] })
      .expect(201);
    expect(created.body).toMatchObject({ public: true, scopes: ['*'] });
    expect(created.body).not.toHaveProperty('client_secret');
    expectProblem(await t.http.post(`${CLIENTS}/${created.body.client_id}/secret`), 409, 'public-client');
  });

  it('rotates the secret of a confidential client: a new one, shown once', async () => {
    const created = await t.http
      .post(CLIENTS)
      .send({ name: 'Rotated', redirect_uris: [CALLBACK], public: false, scopes: ['*'] });
    const rotated = await t.http.post(`${CLIENTS}/${created.body.client_id}/secret`).expect(200);
    expect(rotated.body.client_secret).toMatch(/^ffcs_/);
    expect(rotated.body.client_secret).not.toBe(created.body.client_secret);
  });

  it('refuses redirect URIs that are not https (or http on loopback), hold a fragment, or are too many', async () => {
    const bad: unknown[] = [
      ['http://shop.example/cb'],
      ['https://shop.example/cb#top'],
      ['https://user:pw@shop.example/cb'],
      ['javascript:alert(1)'],
      ['/relative/callback'],
      ['not a url'],
      [CALLBACK, CALLBACK],
      [],
      Array.from({ length: 11 }, (_, i) => `https://shop.example/cb${i}`),
      [`https://shop.example/${'a'.repeat(2000)}`],
      'https://shop.example/cb',
      [42],
    ];
    for (const redirect_uris of bad) {
      const res = await t.http.post(CLIENTS).send({ name: 'Bad', redirect_uris, public: false, scopes: ['*'] });
      expect({ redirect_uris, status: res.status }).toEqual({ redirect_uris, status: 400 });
      expectProblem(res, 400);
    }
    for (const body of [
      { redirect_uris: [CALLBACK], public: false, scopes: ['*'] },
      { name: '', redirect_uris: [CALLBACK], public: false, scopes: ['*'] },
      { name: 'No kind', redirect_uris: [CALLBACK] },
      { name: 'Kind as text', redirect_uris: [CALLBACK], public: 'yes' },
      { name: 'Extra', redirect_uris: [CALLBACK], public: true, client_secret: 'mine' },
    ]) {
      expectProblem(await t.http.post(CLIENTS).send(body), 400);
    }
    const created = await t.http
      .post(CLIENTS)
      .send({ name: 'Valid', redirect_uris: [CALLBACK], public: true, scopes: ['*'] });
    const id = created.body.client_id as string;
    expectProblem(await t.http.patch(`${CLIENTS}/${id}`).send({ redirect_uris: ['http://x.example/'] }), 400);
    expectProblem(await t.http.patch(`${CLIENTS}/${id}`).send({ public: false }), 400);
    expectProblem(await t.http.get(CLIENTS).query({ limit: 101 }), 400);
  });

  it('keeps the built-in administration client out of reach', async () => {
    expectProblem(await t.http.get(`${CLIENTS}/administration`), 404, 'oauth-client-not-found');
    expectProblem(await t.http.patch(`${CLIENTS}/administration`).send({ name: 'x' }), 404);
    expectProblem(await t.http.delete(`${CLIENTS}/administration`), 404);
  });

  it('needs oauth-client:read to read and oauth-client:write to change; nobody reads a secret again', async () => {
    const created = await t.http
      .post(CLIENTS)
      .send({ name: 'Guarded', redirect_uris: [CALLBACK], public: false, scopes: ['*'] });
    const id = created.body.client_id as string;
    const reader = await userWith(['oauth-client:read']);
    const listed = await reader.get(CLIENTS).query({ limit: 100 }).expect(200);
    expect(listed.body.items.map((client: { client_id: string }) => client.client_id)).toContain(id);
    expect(JSON.stringify(listed.body)).not.toContain('client_secret');
    const one = await reader.get(`${CLIENTS}/${id}`).expect(200);
    expect(one.body).not.toHaveProperty('client_secret');
    expectProblem(
      await reader.post(CLIENTS).send({ name: 'x', redirect_uris: [CALLBACK], public: true, scopes: ['*'] }),
      403,
    );
    expectProblem(await reader.patch(`${CLIENTS}/${id}`).send({ name: 'x' }), 403);
    expectProblem(await reader.post(`${CLIENTS}/${id}/secret`), 403);
    expectProblem(await reader.delete(`${CLIENTS}/${id}`), 403);
    const stranger = await userWith(['product:read']);
    expectProblem(await stranger.get(CLIENTS), 403);
    expectProblem(await stranger.get(`${CLIENTS}/${id}`), 403);
    await t.http.get(`${CLIENTS}/${id}`).expect(200);
    const catalog = await t.http.get('/api/permissions').expect(200);
    const names = (catalog.body as Array<{ permission: string }>).map((entry) => entry.permission);
    expect(names).toEqual(expect.arrayContaining(['oauth-client:read', 'oauth-client:write']));
  });
});
