import request from 'supertest';
import { basic, createIntegration } from './support/admin-api.js';
import { expectProblem, PDF, PNG } from './support/fixtures.js';
import { startTestApp, type TestApp } from './support/test-app.js';

interface FileBody {
  id: number;
  path: string;
}

/** Every spelling of one file id that routing and the id pipe accept: case, leading zero, percent-encoding. */
function spellings(id: number): string[] {
  const encoded = [...String(id)].map((digit) => `%3${digit}`).join('');
  return [`/FILES/${id}`, `/Files/${id}/content`, `/files/0${id}`, `/files/${encoded}`, `/files/${encoded}/content`];
}

describe('Files by id: the permission is that of the file’s entity type, however the path is spelled', () => {
  let t: TestApp;
  let articleFile: FileBody;
  let productFile: FileBody;

  const tokenFor = async (permissions: string[]): Promise<Record<string, string>> => {
    const integration = await createIntegration(t, permissions);
    const res = await request(t.url)
      .post('/api/oauth/token')
      .set('Authorization', basic(integration.access_key_id, integration.secret_access_key))
      .type('form')
      .send({ grant_type: 'client_credentials' })
      .expect(200);
    return { Authorization: `Bearer ${res.body.access_token as string}` };
  };
  const stillThere = async (file: FileBody) => {
    const res = await t.http.get(`/files/${file.id}`).expect(200);
    expect(res.body.path).toBe(file.path);
  };

  beforeAll(async () => {
    t = await startTestApp();
    const article = (await t.http.post('/articles').send({ title: 'secret' }).expect(201)).body.id as number;
    const product = (await t.http.post('/products').send({ name: 'public' }).expect(201)).body.id as number;
    articleFile = (await t.http.post(`/files/article/${article}/attachments`).attach('file', PDF, 'a.pdf').expect(201))
      .body;
    productFile = (await t.http.post(`/files/product/${product}/gallery`).attach('file', PNG, 'p.png').expect(201))
      .body;
  });
  afterAll(async () => t.close({ destroy: true }));

  it('answers 404 to file:read for every spelling of an article’s or a product’s file id', async () => {
    const auth = await tokenFor(['file:read']);
    for (const file of [articleFile, productFile]) {
      for (const path of spellings(file.id)) {
        const res = await request(t.url).get(path).set(auth);
        expect({ path, status: res.status }).toEqual({ path, status: 404 });
        expectProblem(res, 404, 'file-not-found');
      }
    }
  });

  it('answers 404 to file:write deleting through any spelling, and deletes nothing', async () => {
    const auth = await tokenFor(['file:write', 'file:read']);
    for (const file of [articleFile, productFile]) {
      for (const path of [`/files/0${file.id}`, `/FILES/${file.id}`, `/files/%3${file.id}`]) {
        expectProblem(await request(t.url).delete(path).set(auth), 404, 'file-not-found');
      }
      await stillThere(file);
    }
  });

  it('lets product:read read a product’s file by any spelling, but not an article’s, which looks missing', async () => {
    const auth = await tokenFor(['product:read']);
    for (const path of spellings(productFile.id)) {
      const res = await request(t.url).get(path).set(auth);
      expect({ path, status: res.status }).toEqual({ path, status: 200 });
    }
    const missing = await request(t.url).get('/files/999999').set(auth);
    for (const path of spellings(articleFile.id)) {
      const res = await request(t.url).get(path).set(auth);
      expectProblem(res, 404, 'file-not-found');
      expect(res.body.title).toBe(missing.body.title);
    }
  });

  it('answers 403 insufficient-scope to product:read deleting a product’s file, 404 for an article’s', async () => {
    const auth = await tokenFor(['product:read']);
    const refused = await request(t.url).delete(`/files/0${productFile.id}`).set(auth);
    expectProblem(refused, 403, 'insufficient-scope');
    expect(refused.body.required_permission).toBe('product:write');
    expectProblem(await request(t.url).delete(`/files/0${articleFile.id}`).set(auth), 404, 'file-not-found');
    await stillThere(productFile);
    await stillThere(articleFile);
  });

  it('lets product:write delete a product’s file through a padded id', async () => {
    const auth = await tokenFor(['product:write']);
    await request(t.url).delete(`/files/0${productFile.id}`).set(auth).expect(204);
    expectProblem(await t.http.get(`/files/${productFile.id}`), 404, 'file-not-found');
  });

  it('still needs a valid bearer token', async () => {
    expectProblem(await request(t.url).get(`/files/${articleFile.id}`), 401, 'invalid-token');
    expectProblem(await request(t.url).get(`/FILES/${articleFile.id}/content`), 401, 'invalid-token');
    expectProblem(await request(t.url).delete(`/files/0${articleFile.id}`), 401, 'invalid-token');
  });
});
