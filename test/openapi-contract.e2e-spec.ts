import { createServer, type Server } from 'node:http';
import { Readable } from 'node:stream';
import request from 'supertest';
import {
  contractCheck,
  observe,
  OFF_CONTRACT,
  type Exchange,
  type OpenApiDocument,
} from './support/openapi-contract.js';

// The response contract check itself (test/support/openapi-contract.ts), against a small document of its own.
const thing = {
  type: 'object',
  required: ['id', 'name'],
  properties: { id: { type: 'integer' }, name: { type: 'string' }, note: { type: 'string', nullable: true } },
} as const;
const problem = { type: 'object', required: ['status'], properties: { status: { type: 'integer' } } } as const;
const document = {
  openapi: '3.0.0',
  info: { title: 'contract check', version: '1' },
  paths: {
    '/things/{id}': {
      parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }],
      get: {
        responses: {
          '200': { description: 'ok', content: { 'application/json': { schema: { $ref: '#/components/schemas/T' } } } },
          '4XX': { description: 'error', content: { 'application/problem+json': { schema: problem } } },
        },
      },
      delete: { responses: { '204': { description: 'deleted' } } },
    },
    '/things/{id}/content': {
      parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }],
      get: {
        responses: {
          '200': { description: 'bytes', content: { 'image/*': { schema: { type: 'string', format: 'binary' } } } },
          '304': { description: 'not modified' },
        },
      },
    },
  },
  components: { schemas: { T: thing } },
} as unknown as OpenApiDocument;

const check = contractCheck(document);
const json = (body: unknown) => Buffer.from(JSON.stringify(body));
const exchange = (over: Partial<Exchange>): Exchange => ({
  method: 'GET',
  url: '/things/1',
  status: 200,
  contentType: 'application/json; charset=utf-8',
  bodyBytes: 10,
  json: json({ id: 1, name: 'lamp' }),
  ...over,
});
const messages = (over: Partial<Exchange>) => Promise.resolve(check(exchange(over)).map((v) => v.message));

describe('Response contract check', () => {
  it('accepts responses as documented: JSON by schema, a status class, no content, wildcard media, 304, HEAD', async () => {
    await expect(messages({})).resolves.toEqual([]);
    await expect(messages({ url: '/things/1?x=1', json: json({ id: 1, name: 'a', note: null }) })).resolves.toEqual([]);
    // Express routes paths in any case and with a trailing slash.
    await expect(messages({ url: '/THINGS/1/' })).resolves.toEqual([]);
    const notFound = { status: 404, contentType: 'application/problem+json', json: json({ status: 404 }) };
    await expect(messages(notFound)).resolves.toEqual([]);
    await expect(messages({ method: 'DELETE', status: 204, contentType: undefined, bodyBytes: 0 })).resolves.toEqual(
      [],
    );
    const bytes = { url: '/things/1/content', contentType: 'image/png', json: undefined };
    await expect(messages(bytes)).resolves.toEqual([]);
    await expect(messages({ ...bytes, status: 304, contentType: undefined, bodyBytes: 0 })).resolves.toEqual([]);
    await expect(messages({ ...bytes, method: 'HEAD', bodyBytes: 0 })).resolves.toEqual([]);
  });

  it('reports a body that does not match its schema, with the property and the operation', async () => {
    const found = check(exchange({ json: json({ id: 'one', name: 5 }) }));
    expect(found.map((v) => v.operation)).toEqual(['GET /things/{id}', 'GET /things/{id}']);
    expect(found.map((v) => v.message).sort()).toEqual(['body /id: must be integer', 'body /name: must be string']);
    await expect(messages({ json: json({ id: 1 }) })).resolves.toEqual([
      "body /name: must have required property 'name'",
    ]);
    await expect(messages({ json: Buffer.from('{') })).resolves.toEqual([
      'body is not JSON although its content type is application/json; charset=utf-8',
    ]);
  });

  it('reports an undocumented status, content type or body, and a missing body', async () => {
    await expect(messages({ status: 500 })).resolves.toEqual(['status 500 not documented (documented: 200, 4XX)']);
    await expect(messages({ contentType: 'text/html' })).resolves.toEqual([
      'content type text/html not documented (documented: application/json)',
    ]);
    await expect(messages({ status: 400, json: json({ status: 400 }) })).resolves.toEqual([
      'content type application/json; charset=utf-8 not documented (documented: application/problem+json)',
    ]);
    await expect(messages({ method: 'DELETE', status: 204, bodyBytes: 2 })).resolves.toEqual([
      'body of type application/json; charset=utf-8 where the document describes none',
    ]);
    await expect(messages({ bodyBytes: 0, contentType: undefined, json: undefined })).resolves.toEqual([
      'empty body, documented: application/json',
    ]);
    const pdf = { url: '/things/1/content', contentType: 'application/pdf', json: undefined };
    await expect(messages(pdf)).resolves.toEqual(['content type application/pdf not documented (documented: image/*)']);
  });

  it('accepts client errors for operations the document does not have, and reports anything else there', async () => {
    await expect(messages({ url: '/nothing', status: 404 })).resolves.toEqual([]);
    await expect(messages({ method: 'PUT', status: 400 })).resolves.toEqual([]);
    await expect(messages({ url: '/nothing' })).resolves.toEqual(['operation not in the document']);
    await expect(messages({ method: 'PUT', status: 500 })).resolves.toEqual(['operation not in the document']);
    await expect(messages({ url: '/things/%E0', status: 400 })).resolves.toEqual([]);
    await expect(messages({ url: '/things/%E0' })).resolves.toEqual([
      'the path is not valid percent-encoding: /things/%E0',
    ]);
    await expect(messages({ url: '/api/docs-json' })).resolves.toEqual([]);
  });

  describe('observing a server', () => {
    let server: Server;
    const seen: Exchange[] = [];
    beforeAll(async () => {
      // As Nest and Express answer: a JSON body in one end(), file bytes piped in chunks, no body at all.
      server = createServer((req, res) => {
        if (req.url?.startsWith('/json')) res.writeHead(201, { 'content-type': 'application/json' }).end('{"a":"é"}');
        else if (req.url === '/stream')
          Readable.from([Buffer.alloc(3), Buffer.alloc(4)]).pipe(res.setHeader('content-type', 'image/png'));
        else res.writeHead(304).end();
      });
      server.prependListener('request', (req, res) => observe(req, res, (e) => seen.push(e)));
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    });
    afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

    it('hands each exchange over (JSON copied, file bytes counted) but OFF_CONTRACT ones, changing no response', async () => {
      const res = await request(server).get('/json?q=1').expect(201);
      expect(res.body).toEqual({ a: 'é' });
      const stream = await request(server).head('/stream').expect(200);
      expect(stream.headers['content-type']).toBe('image/png');
      const bytes = await request(server).get('/stream').buffer(true).expect(200);
      expect(bytes.body).toHaveLength(7);
      await request(server).get('/none').expect(304);
      await request(server).get('/json?skipped').set(OFF_CONTRACT, 'a request outside every contract').expect(201);
      expect(seen.map(({ json: copy, ...rest }) => ({ ...rest, json: copy?.toString('utf8') }))).toEqual([
        {
          method: 'GET',
          url: '/json?q=1',
          status: 201,
          contentType: 'application/json',
          bodyBytes: 10,
          json: '{"a":"é"}',
        },
        { method: 'HEAD', url: '/stream', status: 200, contentType: 'image/png', bodyBytes: 7, json: undefined },
        { method: 'GET', url: '/stream', status: 200, contentType: 'image/png', bodyBytes: 7, json: undefined },
        { method: 'GET', url: '/none', status: 304, contentType: undefined, bodyBytes: 0, json: undefined },
      ]);
    });
  });
});
