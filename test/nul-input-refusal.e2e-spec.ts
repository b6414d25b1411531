import request from 'supertest';
import { expectProblem } from './support/fixtures.js';
import { startTestApp, type TestApp } from './support/test-app.js';

const TOKEN = '/api/oauth/token';
const NUL = '\u0000';

/*
 * U+0000 in any input is a 400 before it reaches the database: PostgreSQL cannot store it in text (22021) and answered
 * 500, before authentication at the token endpoint too, where the failure limiter gave the point back. SQLite stores
 * it; the answer must be the same 400 on both (CI runs this suite on each).
 */
describe('U+0000 in JSON, form, query and path input is a 400', () => {
  let t: TestApp;
  let role: string;

  beforeAll(async () => {
    t = await startTestApp();
    role = `nul-${Date.now()}`;
    await t.http
      .post('/api/roles')
      .send({ name: role, permissions: ['product:read'] })
      .expect(201);
  });
  afterAll(async () => t.close({ destroy: true }));

  it('answers the token endpoint invalid_request, every time, in JSON and forms', async () => {
    const body = { grant_type: 'password', client_id: 'administration', username: `admin${NUL}`, password: 'x' };
    // More than TOKEN_FAILURES_PER_MINUTE (10): each is refused as malformed, none is a 500.
    for (let i = 0; i < 12; i++) {
      const res = await request(t.url).post(TOKEN).send(body);
      expect({ status: res.status, error: res.body.error }).toEqual({ status: 400, error: 'invalid_request' });
    }
    const form = await request(t.url)
      .post(TOKEN)
      .type('form')
      .send('grant_type=password&client_id=administration&username=admin%00&password=x');
    expect({ status: form.status, error: form.body.error }).toEqual({ status: 400, error: 'invalid_request' });
    const basic = await request(t.url)
      .post(TOKEN)
      .set('Authorization', `Basic ${Buffer.from('FFIA%00:secret').toString('base64')}`)
      .send({ grant_type: 'client_credentials' });
    expect({ status: basic.status, error: basic.body.error }).toEqual({ status: 401, error: 'invalid_client' });
    const revoke = await request(t.url).post('/api/oauth/revoke').send({ client_id: 'administration', token: NUL });
    expect({ status: revoke.status, error: revoke.body.error }).toEqual({ status: 400, error: 'invalid_request' });
  });

  it('refuses it in the body of every admin and catalog route, nested and in names too', async () => {
    const writes: Array<[string, object]> = [
      ['/products', { name: `lamp${NUL}` }],
      ['/products', { name: 'lamp', description: `a${NUL}b` }],
      ['/articles', { title: `${NUL}` }],
      ['/api/roles', { name: `r${NUL}`, permissions: ['product:read'] }],
      ['/api/roles', { name: 'nested-nul', permissions: [`product:read${NUL}`] }],
      ['/api/integrations', { label: `label${NUL}`, role }],
      ['/api/integrations', { label: 'label', owner: `owner${NUL}`, role }],
      ['/api/integrations', { label: 'label', role: `${role}${NUL}` }],
      ['/api/users', { username: 'nul-user', password: 'a-long-enough-password', role: `admin${NUL}` }],
      ['/api/webhooks', { url: `http://127.0.0.1:9/${NUL}`, events: ['*'] }],
      ['/api/webhooks', { url: 'http://127.0.0.1:9/', events: ['*'], description: `d${NUL}` }],
      ['/products', { [`na${NUL}me`]: 'key' }],
    ];
    for (const [path, body] of writes) {
      const res = await t.http.post(path).send(body);
      expect({ path, body, status: res.status }).toEqual({ path, body, status: 400 });
      expect(expectProblem(res, 400).detail).toMatch(/U\+0000/);
    }
    const form = await t.http.post('/products').type('form').send('name=lamp%00');
    expectProblem(form, 400);
    // A backslash followed by "u0000" is text, not U+0000.
    const escaped = await t.http.post('/products').send({ name: '\\u0000' }).expect(201);
    expect(escaped.body.name).toBe('\\u0000');
  });

  it('refuses it in the query and the path', async () => {
    expect(expectProblem(await t.http.get('/api/audit-events?actor=a%00'), 400).detail).toMatch(/U\+0000/);
    expectProblem(await t.http.get('/files/product%00/1/cover'), 400);
    await t.http.get('/api/audit-events?actor=a%2500').expect(200);
  });

  it('has stored none of it, and still serves', async () => {
    const products = (await t.http.get('/products?limit=100').expect(200)).body.items as Array<{ name: string }>;
    expect(products.map((product) => product.name)).toEqual(['\\u0000']);
    await t.http.get('/api/integrations').expect(200);
  });
});
