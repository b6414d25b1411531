import { startTestApp, type TestApp } from './support/test-app.js';

/** Bodies a careless or hostile client might send. */
const BODIES: Array<[string, string, string]> = [
  ['malformed JSON', 'application/json', '{"name": '],
  ['JSON array', 'application/json', '[1,2,3]'],
  ['JSON string', 'application/json', '"text"'],
  ['JSON null', 'application/json', 'null'],
  ['nested junk', 'application/json', '{"name":{"$gt":""},"description":[1],"ids":[{"a":1}],"title":1e999}'],
  ['prototype pollution', 'application/json', '{"__proto__":{"admin":true},"constructor":{"prototype":{"x":1}}}'],
  ['form body', 'application/x-www-form-urlencoded', 'name=x&name=y&ids[]=1'],
  ['plain text', 'text/plain', 'hello'],
  [
    'broken multipart',
    'multipart/form-data; boundary=zz',
    '--zz\r\nContent-Disposition: form-data; name="file"\r\n\r\nx',
  ],
  ['multipart without boundary', 'multipart/form-data', 'x'],
];

const PATHS = [
  '/products',
  '/products/1',
  '/products/abc',
  '/articles/99999999999999999999',
  '/files/product/1/cover',
  '/files/product/1/gallery/order',
  '/files/%E2%98%83/1/x',
  '/files/1',
  '/files/1/content',
  `/files/${'a'.repeat(3000)}/1/cover`,
  '/files/fields',
  '/api/me',
  '/api/me/password',
  '/api/permissions',
  '/api/oauth/revoke',
];
/** The OAuth endpoints answer errors with RFC 6749 bodies; every other route with problem details. */
const ERROR_TYPE = (path: string) =>
  path.startsWith('/api/oauth/') ? /^application\/json/ : /^application\/problem\+json/;

describe('Robustness: no client input gets a 500', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
    await t.http.post('/products').send({ name: 'hit by every request' }).expect(201);
    await t.http.post('/products').send({ name: 'bystander' }).expect(201);
  });
  afterAll(async () => t.close({ destroy: true }));

  it.each(['POST', 'PUT', 'PATCH', 'DELETE', 'GET'])(
    '%s with hostile bodies and paths answers 4xx problems or success',
    async (method) => {
      for (const path of PATHS) {
        for (const [name, type, body] of BODIES) {
          const res = await t.http[method.toLowerCase() as 'post'](path).set('Content-Type', type).send(body);
          const context = `${method} ${path.slice(0, 60)} with ${name}`;
          expect({ context, status: res.status < 500 }).toEqual({ context, status: true });
          if (res.status >= 400)
            expect({ context, type: res.headers['content-type'] }).toEqual({
              context,
              type: expect.stringMatching(ERROR_TYPE(path)),
            });
        }
      }
    },
  );

  it('leaves data no request addressed untouched, and pollutes no prototype', async () => {
    const res = await t.http.get('/products/2').expect(200);
    expect(res.body).toMatchObject({ id: 2, name: 'bystander', description: null });
    expect(({} as Record<string, unknown>).admin).toBeUndefined();
  });
});
