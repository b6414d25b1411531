import request from 'supertest';
import { basic } from './support/admin-api.js';
import { expectProblem, PNG } from './support/fixtures.js';
import { passwordToken, startTestApp, type TestApp, type TokenBody } from './support/test-app.js';

const TOKEN = '/api/oauth/token';
const PASSWORD = 'the-first-long-password';
const NEW_PASSWORD = 'the-second-long-password';
/** Wrong passwords one user may try from one address per window (sign-in and password change together). */
const FAILURES_PER_MINUTE = 5;
const MAX_FILE_SIZE = 8 * 1024 * 1024;
/** What every field refuses unless it names the type exactly. */
const REFUSED = [
  'text/html',
  'application/xhtml+xml',
  'image/svg+xml',
  'application/xml',
  'text/xml',
  'application/x-msdownload',
  'application/x-executable',
  'application/x-elf',
  'application/x-mach-binary',
  'application/x-sharedlib',
  'application/vnd.microsoft.portable-executable',
];

interface Me {
  kind: string;
  id: number;
  name: string;
  role: { id: number; name: string } | null;
  permissions: string[];
}

interface Permission {
  permission: string;
  resource: string;
  access: string;
  description: string;
}

interface AttachmentType {
  attachment_type: string;
  collection_path: string | null;
  fields: Array<Record<string, unknown> & { name: string }>;
}

/** The endpoints the administration UI builds on: who am I, my password, the permission catalog, the file fields. */
describe('Administration API for the UI', () => {
  let t: TestApp;
  let seq = 0;
  const unique = (prefix: string) => `${prefix}-${++seq}`;

  const as = (accessToken: string) => request.agent(t.url).set('Authorization', `Bearer ${accessToken}`);
  const role = async (permissions: string[]) => {
    const res = await t.http
      .post('/api/roles')
      .send({ name: unique('role'), permissions })
      .expect(201);
    return res.body as { id: number; name: string };
  };
  /** A fresh integration holding a role with `permissions`, and a token of it (narrowed to `scope` if given). */
  const integrationWith = async (permissions: string[], scope?: string) => {
    const { id: roleId, name: roleName } = await role(permissions);
    const label = unique('integration');
    const created = await t.http.post('/api/integrations').send({ label, role: roleName }).expect(201);
    const { id, access_key_id, secret_access_key } = created.body as Record<string, string> & { id: number };
    const token = await request(t.url)
      .post(TOKEN)
      .set('Authorization', basic(access_key_id, secret_access_key))
      .type('form')
      .send({ grant_type: 'client_credentials', ...(scope ? { scope } : {}) })
      .expect(200);
    return { id, label, roleId, roleName, accessToken: (token.body as TokenBody).access_token };
  };
  /** A fresh user with a role holding `permissions`, and the password PASSWORD. */
  const userWith = async (permissions: string[]) => {
    const { id: roleId, name: roleName } = await role(permissions);
    const username = unique('user');
    const res = await t.http.post('/api/users').send({ username, password: PASSWORD, role: roleName }).expect(201);
    return { id: res.body.id as number, username, roleId, roleName };
  };
  const signIn = (username: string, password: string) =>
    request(t.url).post(TOKEN).send({ grant_type: 'password', client_id: 'administration', username, password });
  const refresh = (refreshToken: string) =>
    request(t.url)
      .post(TOKEN)
      .send({ grant_type: 'refresh_token', client_id: 'administration', refresh_token: refreshToken });
  const changePassword = (accessToken: string, body: object) => as(accessToken).put('/api/me/password').send(body);

  beforeAll(async () => {
    t = await startTestApp({
      TOKEN_FAILURES_PER_MINUTE: String(FAILURES_PER_MINUTE),
      MAX_FILE_SIZE: String(MAX_FILE_SIZE),
    });
  });
  afterAll(async () => t.close({ destroy: true }));

  describe('GET /api/me', () => {
    it('names the signed-in user, its role and what its token grants', async () => {
      const me = (await t.http.get('/api/me').expect(200)).body as Me;
      expect(me).toEqual({
        kind: 'user',
        id: expect.any(Number),
        name: 'admin',
        role: { id: expect.any(Number), name: 'admin' },
        permissions: ['*'],
      });
      const user = await userWith(['product:read', 'article:read']);
      const token = await passwordToken(t.url, user.username, PASSWORD);
      expect((await as(token.access_token).get('/api/me').expect(200)).body).toEqual({
        kind: 'user',
        id: user.id,
        name: user.username,
        role: { id: user.roleId, name: user.roleName },
        permissions: ['product:read', 'article:read'],
      });
    });

    it("names an integration by its label, with the token's scope rather than everything its role holds", async () => {
      const integration = await integrationWith(['product:read', 'product:write'], 'product:read');
      expect((await as(integration.accessToken).get('/api/me').expect(200)).body).toEqual({
        kind: 'integration',
        id: integration.id,
        name: integration.label,
        role: { id: integration.roleId, name: integration.roleName },
        permissions: ['product:read'],
      });
    });

    it('needs a valid token', async () => {
      expectProblem(await request(t.url).get('/api/me'), 401, 'invalid-token');
      expectProblem(await as('not-a-token').get('/api/me'), 401, 'invalid-token');
    });
  });

  describe('GET /api/permissions', () => {
    it('lists * and every permission the routes and the file fields check, sorted, once each, to any token', async () => {
      const { accessToken } = await integrationWith(['article:read']);
      const list = (await as(accessToken).get('/api/permissions').expect(200)).body as Permission[];
      const names = list.map((entry) => entry.permission);
      expect(names[0]).toBe('*');
      expect(names.slice(1)).toEqual([...new Set(names.slice(1))].sort());
      expect(names).toEqual(
        expect.arrayContaining([
          ...['article:read', 'article:write', 'product:read', 'product:write', 'audit:read', 'webhook:write'],
          ...['integration:read', 'integration:write', 'role:read', 'role:write', 'user:read', 'user:write'],
        ]),
      );
      // Only what is checked: there is no generic file permission, and nothing needs `*` by name.
      expect(names.filter((name) => name.startsWith('file:'))).toEqual([]);
      for (const entry of list.slice(1)) {
        const [resource, access] = entry.permission.split(':');
        expect(entry).toEqual({ permission: entry.permission, resource, access, description: expect.any(String) });
      }
      expect(list[0]).toEqual({ permission: '*', resource: '*', access: '*', description: expect.any(String) });
      const product = list.find((entry) => entry.permission === 'product:read');
      expect(product?.description).toBe('Read products and product files');
    });

    it('offers only what a role can hold: a role with all of it is accepted', async () => {
      const list = (await t.http.get('/api/permissions').expect(200)).body as Permission[];
      await t.http
        .post('/api/roles')
        .send({ name: unique('everything'), permissions: list.slice(1).map((entry) => entry.permission) })
        .expect(201);
    });

    it('needs a valid token', async () => {
      expectProblem(await request(t.url).get('/api/permissions'), 401, 'invalid-token');
    });
  });

  describe('GET /files/fields', () => {
    const image = { max_pixels: 100000000, refused: REFUSED };

    it('lists every attachable type with its fields and the rules an upload enforces', async () => {
      const types = (await t.http.get('/files/fields').expect(200)).body as AttachmentType[];
      expect(types).toEqual([
        {
          attachment_type: 'article',
          collection_path: '/articles',
          fields: [
            {
              ...{ name: 'thumbnail', multi: false, accept: ['image/*'], refused: REFUSED },
              ...{ max_size: MAX_FILE_SIZE, max_count: 1, max_files_per_request: 1, max_pixels: null, variants: [] },
            },
            {
              ...{ name: 'attachments', multi: true, accept: ['*/*'], refused: REFUSED },
              ...{ max_size: MAX_FILE_SIZE, max_count: 10, max_files_per_request: 10, max_pixels: null, variants: [] },
            },
          ],
        },
        {
          attachment_type: 'product',
          collection_path: '/products',
          fields: [
            {
              ...{ name: 'cover', multi: false, accept: ['image/*'], ...image },
              ...{ max_size: 5 * 1024 * 1024, max_count: 1, max_files_per_request: 1, variants: ['thumb', 'large'] },
            },
            {
              ...{ name: 'gallery', multi: true, accept: ['image/*', 'application/pdf'], ...image },
              ...{ max_size: MAX_FILE_SIZE, max_count: 30, max_files_per_request: 20, variants: ['thumb'] },
            },
          ],
        },
      ]);
    });

    it('gives each type a collection path that lists its entities', async () => {
      const types = (await t.http.get('/files/fields').expect(200)).body as AttachmentType[];
      await t.http.post('/products').send({ name: 'Lamp' }).expect(201);
      for (const type of types) {
        const page = await t.http.get(type.collection_path!).expect(200);
        expect(page.body).toEqual(expect.objectContaining({ items: expect.any(Array), total: expect.any(Number) }));
      }
    });

    it('states the size limit the upload enforces', async () => {
      const [, product] = (await t.http.get('/files/fields').expect(200)).body as AttachmentType[];
      const cover = product.fields.find((field) => field.name === 'cover')!;
      const { id } = (await t.http.post('/products').send({ name: 'Desk' }).expect(201)).body as { id: number };
      const tooLarge = Buffer.concat([PNG, Buffer.alloc((cover.max_size as number) + 1 - PNG.length)]);
      const upload = (bytes: Buffer) => t.http.post(`/files/product/${id}/cover`).attach('file', bytes, 'a.png');
      expectProblem(await upload(tooLarge), 413, 'file-too-large');
      await upload(PNG).expect(201);
    });

    it('lists only the types whose files the token may read', async () => {
      const productReader = await integrationWith(['product:read', 'article:write']);
      const listed = (await as(productReader.accessToken).get('/files/fields').expect(200)).body as AttachmentType[];
      expect(listed.map((type) => type.attachment_type)).toEqual(['product']);
      const writerOnly = await integrationWith(['article:write', 'role:read']);
      await as(writerOnly.accessToken).get('/files/fields').expect(200, []);
      expectProblem(await request(t.url).get('/files/fields'), 401, 'invalid-token');
    });
  });

  describe('PUT /api/me/password', () => {
    it('changes the password: the old one stops working at the token endpoint, the new one works', async () => {
      const user = await userWith(['product:read']);
      const { access_token } = await passwordToken(t.url, user.username, PASSWORD);
      await changePassword(access_token, { current_password: PASSWORD, new_password: NEW_PASSWORD }).expect(204);
      const old = await signIn(user.username, PASSWORD).expect(400);
      expect(old.body).toEqual({ error: 'invalid_grant', error_description: expect.any(String) });
      await signIn(user.username, NEW_PASSWORD).expect(200);
    });

    it("ends the user's other sign-ins at once and keeps the one that made the change", async () => {
      const user = await userWith(['product:read']);
      const current = await passwordToken(t.url, user.username, PASSWORD);
      const other = await passwordToken(t.url, user.username, PASSWORD);
      await as(other.access_token).get('/api/me').expect(200);
      await changePassword(current.access_token, { current_password: PASSWORD, new_password: NEW_PASSWORD }).expect(
        204,
      );
      expectProblem(await as(other.access_token).get('/api/me'), 401, 'invalid-token');
      expect((await refresh(other.refresh_token!).expect(400)).body.error).toBe('invalid_grant');
      await as(current.access_token).get('/api/me').expect(200);
      const refreshed = (await refresh(current.refresh_token!).expect(200)).body as TokenBody;
      await as(refreshed.access_token).get('/products').expect(200);
    });

    it('refuses a wrong current password and changes nothing', async () => {
      const user = await userWith(['product:read']);
      const { access_token, refresh_token } = await passwordToken(t.url, user.username, PASSWORD);
      const other = await passwordToken(t.url, user.username, PASSWORD);
      const wrong = await changePassword(access_token, {
        current_password: 'not-the-password',
        new_password: NEW_PASSWORD,
      });
      expectProblem(wrong, 400, 'wrong-password');
      await signIn(user.username, NEW_PASSWORD).expect(400);
      await signIn(user.username, PASSWORD).expect(200);
      await as(other.access_token).get('/api/me').expect(200);
      await refresh(refresh_token!).expect(200);
      const trail = await t.http.get('/api/audit-events?action=user.change-own-password&limit=100').expect(200);
      const events = (trail.body as { items: Array<Record<string, unknown>> }).items;
      expect(events).toContainEqual(
        expect.objectContaining({
          ...{ actor: `user:${user.id}`, target_type: 'user', target_id: String(user.id), outcome: 'failure' },
          details: { reason: 'wrong-password' },
        }),
      );
    });

    it('validates the new password as user creation does', async () => {
      const user = await userWith(['product:read']);
      const { access_token } = await passwordToken(t.url, user.username, PASSWORD);
      const short = await changePassword(access_token, { current_password: PASSWORD, new_password: 'short' });
      const body = expectProblem(short, 400, 'validation-failed');
      expect(body.errors).toEqual([{ field: 'new_password', messages: [expect.stringMatching(/12 characters/)] }]);
      expectProblem(
        await t.http.post('/api/users').send({ username: unique('u'), password: 'short', role: 'admin' }),
        400,
      );
      expectProblem(await changePassword(access_token, { new_password: NEW_PASSWORD }), 400, 'validation-failed');
      await signIn(user.username, PASSWORD).expect(200);
    });

    it('refuses an integration, which has no password, with 403', async () => {
      const integration = await integrationWith(['*']);
      const refused = await changePassword(integration.accessToken, {
        current_password: PASSWORD,
        new_password: NEW_PASSWORD,
      });
      const body = expectProblem(refused, 403, 'not-a-user');
      expect(body.detail).toMatch(/integration/);
      expectProblem(await request(t.url).put('/api/me/password').send({}), 401, 'invalid-token');
    });

    it('counts wrong current passwords against the sign-in failure limits', async () => {
      const user = await userWith(['product:read']);
      const { access_token } = await passwordToken(t.url, user.username, PASSWORD);
      const guess = { current_password: 'a-wrong-guess', new_password: NEW_PASSWORD };
      for (let i = 0; i < FAILURES_PER_MINUTE; i++) expectProblem(await changePassword(access_token, guess), 400);
      const limited = await changePassword(access_token, { ...guess, current_password: PASSWORD });
      expectProblem(limited, 429, 'too-many-attempts');
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
      expect((await signIn(user.username, PASSWORD)).status).toBe(429);
      await signIn(user.username, NEW_PASSWORD).expect(429);
    });
  });
});
