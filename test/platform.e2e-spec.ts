import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import request from 'supertest';
import { startTestApp, type TestApp } from './support/test-app.js';
import { expectProblem } from './support/fixtures.js';

describe('Platform: errors, health, request ids, API docs', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => t.close({ destroy: true }));

  it('answers unknown routes with a 404 problem', async () => {
    const body = expectProblem(await t.http.get('/no/such/route'), 404);
    expect(body.type).toBe('about:blank');
    expect(body.instance).toBe('/no/such/route');
  });

  it('reports health without a token', async () => {
    const res = await request(t.url).get('/health').expect(200);
    expect(res.body).toEqual({ status: 'ok', checks: { database: 'up', storage: 'up' } });
  });

  it('serves the OpenAPI document and UI without a token', async () => {
    const doc = await request(t.url).get('/api/docs-json').expect(200);
    expect(Object.keys(doc.body.paths)).toEqual(
      expect.arrayContaining([
        '/files/{attachmentType}/{attachmentId}/{fieldName}',
        '/products',
        '/products/{id}',
        '/articles',
      ]),
    );
    await request(t.url).get('/api/docs').expect(200).expect('Content-Type', /html/);
  });

  it('serves exactly the committed openapi.json (regenerate with UPDATE_OPENAPI=1 npm run test:e2e)', async () => {
    const served = (await request(t.url).get('/api/docs-json').expect(200)).body as unknown;
    const file = join(process.cwd(), 'openapi.json');
    if (process.env.UPDATE_OPENAPI === '1') await writeFile(file, `${JSON.stringify(served, null, 2)}\n`);
    const committed = JSON.parse(await readFile(file, 'utf8')) as unknown;
    expect(served).toEqual(committed);
  });

  it('returns a request id, keeping a sane one the client sent', async () => {
    const generated = await t.http.get('/health');
    expect(generated.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const echoed = await t.http.get('/health').set('X-Request-Id', 'trace-123');
    expect(echoed.headers['x-request-id']).toBe('trace-123');
    const refused = await t.http.get('/health').set('X-Request-Id', 'bad id with spaces');
    expect(refused.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('Health when storage is unreachable', () => {
  it('answers 503 as a problem naming the failed check', async () => {
    const probe = await startTestApp();
    const blocker = join(probe.dataDir, 'not-a-directory');
    await writeFile(blocker, 'x');
    await probe.close();
    const t = await startTestApp({ STORAGE_DIR: join(blocker, 'files') });
    try {
      const body = expectProblem(await request(t.url).get('/health'), 503);
      expect(body.checks).toEqual({ database: 'up', storage: 'down' });
    } finally {
      await t.close({ destroy: true });
      await probe.close({ destroy: true }).catch(() => undefined);
    }
  });
});
