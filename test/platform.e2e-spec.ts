import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { load } from 'js-yaml';
import request from 'supertest';
import { generateApiDocument } from '../src/api-document.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import { committedOpenApi, writeOpenApiFiles } from './support/client-types.js';
import { expectProblem } from './support/fixtures.js';

/** As much of an OpenAPI document as these tests read. */
interface OpenApiOperation {
  operationId?: string;
  summary?: string;
  description?: string;
  parameters?: unknown[];
  security?: Array<Record<string, string[]>>;
  responses: Record<string, unknown>;
}
interface OpenApiDocument {
  info: { contact?: Record<string, string> };
  servers?: Array<{ url: string }>;
  paths: Record<string, Record<string, OpenApiOperation>>;
  components: {
    schemas: Record<string, { properties: Record<string, unknown> }>;
    securitySchemes: Record<string, { flows?: Record<string, unknown> }>;
  };
}

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
    expect(res.body).toEqual({
      status: 'ok',
      checks: { database: 'up', storage: 'up' },
      readCache: { hits: expect.any(Number), misses: expect.any(Number), flushes: expect.any(Number) },
    });
  });

  it('serves the OpenAPI document and UI without a token', async () => {
    const doc = await request(t.url).get('/api/docs-json').expect(200);
    expect(Object.keys(doc.body.paths)).toEqual(
      expect.arrayContaining(['/files/product/{attachmentId}/cover', '/products', '/products/{id}', '/articles']),
    );
    await request(t.url).get('/api/docs').expect(200).expect('Content-Type', /html/);
  });

  it('serves the same document as YAML, and the Swagger UI on it', async () => {
    const json = await request(t.url)
      .get('/api/docs-json')
      .expect(200)
      .expect('Content-Type', /application\/json/);
    const yaml = await request(t.url)
      .get('/api/docs-yaml')
      .expect(200)
      .expect('Content-Type', /text\/yaml/);
    expect(load(yaml.text)).toEqual(json.body);
    // Serialized once: later answers are the same bytes.
    expect((await request(t.url).get('/api/docs-json').expect(200)).text).toBe(json.text);
    expect((await request(t.url).get('/api/docs-yaml').expect(200)).text).toBe(yaml.text);
    const init = await request(t.url).get('/api/docs/swagger-ui-init.js').expect(200);
    expect(init.text).toContain('"/products/{id}"');
  });

  it('commits the document the code declares, and serves it (regenerate with UPDATE_OPENAPI=1 npm run test:e2e)', async () => {
    // The service serves the file as it was when it started (UPDATE_OPENAPI=1 rewrites it below).
    const atStart = await committedOpenApi();
    const served = (await request(t.url).get('/api/docs-json').expect(200)).body as OpenApiDocument;
    expect(served).toEqual(atStart);
    // Round-tripped through JSON as served: what the file can hold (no undefined properties).
    const generated = JSON.parse(JSON.stringify(generateApiDocument(t.app))) as OpenApiDocument;
    // The only server is relative: the document is the same at every address.
    expect(generated.servers).toEqual([{ url: '/' }]);
    if (process.env.UPDATE_OPENAPI === '1') await writeOpenApiFiles(generated);
    expect(generated).toEqual(await committedOpenApi());
  });

  it('names, describes, types and secures every operation', async () => {
    const doc = (await request(t.url).get('/api/docs-json').expect(200)).body as OpenApiDocument;
    const operations = Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.entries(item).map(([method, operation]) => ({ at: `${method.toUpperCase()} ${path}`, ...operation })),
    );
    expect(operations.length).toBeGreaterThan(40);
    for (const operation of operations) {
      // Nest's default id is `Controller_method`: every operation names itself for generated clients.
      expect({ at: operation.at, id: operation.operationId }).toEqual({
        at: operation.at,
        id: expect.stringMatching(/^[a-z][A-Za-z]+$/),
      });
      expect({ at: operation.at, summary: operation.summary }).toEqual({
        at: operation.at,
        summary: expect.any(String),
      });
      expect({ at: operation.at, ok: Object.keys(operation.responses).some((status) => /^2/.test(status)) }).toEqual({
        at: operation.at,
        ok: true,
      });
    }
    const ids = operations.map((operation) => operation.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    // "an" before a vowel sound: "Create an article", "Delete a user".
    expect(operations.filter((operation) => /\ba [aeio]/i.test(operation.summary ?? '')).map((o) => o.at)).toEqual([]);
    // Each security requirement once (a decorator put on several methods once repeated its requirement).
    const repeated = operations.filter((o) => {
      const requirements = (o.security ?? []).map((requirement) => JSON.stringify(requirement));
      return new Set(requirements).size !== requirements.length;
    });
    expect(repeated.map((operation) => operation.at)).toEqual([]);
    expect(doc.info.contact).toEqual({ name: expect.any(String), email: expect.stringContaining('@') });
    const open = operations.filter((operation) => operation.security?.length === 0).map((o) => o.operationId);
    expect(open.sort()).toEqual([
      'authorize',
      'authorizeSignIn',
      'checkHealth',
      'discoverTusUpload',
      'downloadSignedFile',
      'getAuthorizationServerMetadata',
      'getJwks',
      'getToken',
      'getWebhookKeys',
      'revokeToken',
    ]);
    for (const operation of operations.filter((o) => !open.includes(o.operationId))) {
      expect({ at: operation.at, security: operation.security }).toEqual({
        at: operation.at,
        security: expect.arrayContaining([{ bearer: [] }, { oauth2: expect.any(Array) }]),
      });
      expect(operation.responses).toHaveProperty('401');
    }
    expect(doc.components.securitySchemes.oauth2.flows).toMatchObject({
      clientCredentials: {
        tokenUrl: '/api/oauth/token',
        scopes: expect.objectContaining({ 'product:read': expect.any(String) }),
      },
      password: { tokenUrl: '/api/oauth/token' },
    });
  });

  it('documents file fields from @FileField() alone: a nullable FileRecord, or an array of them', async () => {
    const doc = (await request(t.url).get('/api/docs-json').expect(200)).body as OpenApiDocument;
    const product = doc.components.schemas.Product;
    expect(product.properties.cover).toMatchObject({
      oneOf: [{ $ref: '#/components/schemas/FileRecord' }, { type: 'string', nullable: true, enum: [null] }],
    });
    expect(product.properties.gallery).toMatchObject({
      type: 'array',
      items: { $ref: '#/components/schemas/FileRecord' },
      description: expect.stringContaining('at most 30 files'),
    });
    expect(doc.components.schemas.Article.properties.attachments).toMatchObject({ type: 'array' });
    expect(doc.paths['/products/{id}'].get.responses['200']).toMatchObject({
      content: { 'application/json': { schema: { $ref: '#/components/schemas/Product' } } },
    });
    // One upload operation per field, at the route's path with the type and the field written out.
    const uploads = Object.entries(doc.paths).flatMap(([path, item]) =>
      item.post?.operationId?.startsWith('upload') ? [`${item.post.operationId} ${path}`] : [],
    );
    expect(uploads.sort()).toEqual([
      'uploadArticleAttachments /files/article/{attachmentId}/attachments',
      'uploadArticleThumbnail /files/article/{attachmentId}/thumbnail',
      'uploadProductCover /files/product/{attachmentId}/cover',
      'uploadProductGallery /files/product/{attachmentId}/gallery',
    ]);
    const gallery = doc.paths['/files/product/{attachmentId}/gallery'].post;
    expect(gallery.description).toContain('at most 30 files');
    const inPath = (gallery.parameters ?? []).filter((parameter) => (parameter as { in: string }).in !== 'header');
    expect(inPath).toEqual([
      expect.objectContaining({ name: 'attachmentId', schema: expect.objectContaining({ type: 'integer' }) }),
    ]);
    // tus creation on the same operation (see test/resumable-tus.e2e-spec.ts)
    expect(gallery.parameters).toEqual(
      expect.arrayContaining(
        ['Tus-Resumable', 'Upload-Length', 'Upload-Defer-Length', 'Upload-Metadata'].map((name) =>
          expect.objectContaining({ name, in: 'header', required: false }),
        ),
      ),
    );
    const reorder = doc.paths['/files/{attachmentType}/{attachmentId}/{fieldName}/order'].put;
    expect(reorder.description).toContain('| product | gallery | multi | 30 |');
    expect(reorder.parameters).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ name: 'attachmentType', schema: { type: 'string', enum: ['article', 'product'] } }),
        expect.objectContaining({ name: 'fieldName', schema: { type: 'string', enum: ['attachments', 'gallery'] } }),
      ]),
    );
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
