import type { Express, Request, Response } from 'express';
import { IncomingMessage, ServerResponse, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { deepFreeze } from '../deep-freeze.js';
import { ServiceExpressAdapter } from './express-adapter.js';
import { holdsKeptJsonText, JsonBytes, keepJsonText, sendsJsonBytes } from './json-text.js';

describe('ServiceExpressAdapter', () => {
  let server: Server;
  let app: Express;
  /** Each request's and response's prototypes as the server created them, before Express saw them. */
  const born: Array<{ request: object | null; response: object | null }> = [];

  beforeAll(async () => {
    const adapter = new ServiceExpressAdapter();
    adapter.initHttpServer({});
    app = adapter.getInstance<Express>();
    app.get('/echo/:name', (req: Request, res: Response) => {
      res.json({ name: req.params.name, query: req.query, host: req.get('host') });
    });
    app.get('/kept', (req: Request, res: Response) => {
      if (req.query.spaces) app.set('json spaces', 2);
      if (req.query.type) res.type('application/problem+json');
      const body = { items: [kept, { other: kept }], at: new Date(0) };
      holdsKeptJsonText(body);
      res.json(body);
      app.set('json spaces', undefined);
    });
    app.get('/bytes', (req: Request, res: Response) => {
      res.json(new JsonBytes(Buffer.from('{"name":"caf\u00e9"}')));
    });
    server = adapter.getHttpServer();
    server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => {
      born.push({ request: Object.getPrototypeOf(req) as object, response: Object.getPrototypeOf(res) as object });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  });

  const kept = deepFreeze({ id: 1, name: 'kept', variants: { thumb: { width: 2 } } });
  keepJsonText(kept);

  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  it("creates requests and responses with the Express application's prototypes", async () => {
    const { port } = server.address() as AddressInfo;
    const res = await fetch(`http://127.0.0.1:${port}/echo/files?limit=5`);

    expect(born).toEqual([{ request: app.request, response: app.response }]);
    // They are still Node.js's requests and responses, and Express's methods work on them.
    expect(app.request).toBeInstanceOf(IncomingMessage);
    expect(app.response).toBeInstanceOf(ServerResponse);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ name: 'files', query: { limit: '5' }, host: `127.0.0.1:${port}` });
  });

  it("answers res.json with the JSON text kept for shared values, as Express's own res.json would", async () => {
    const { port } = server.address() as AddressInfo;
    const expected = { items: [kept, { other: kept }], at: '1970-01-01T00:00:00.000Z' };

    const plain = await fetch(`http://127.0.0.1:${port}/kept`);
    expect(plain.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(await plain.text()).toBe(JSON.stringify(expected));

    // A Content-Type already set is kept; Express's settings, when set, are honoured by Express's own res.json.
    const typed = await fetch(`http://127.0.0.1:${port}/kept?type=1`);
    expect(typed.headers.get('content-type')).toBe('application/problem+json; charset=utf-8');
    const spaced = await fetch(`http://127.0.0.1:${port}/kept?spaces=1`);
    expect(await spaced.text()).toBe(JSON.stringify(expected, null, 2));
  });

  it('sends a body already written as JSON (JsonBytes) as it is, typed as a JSON text is', async () => {
    const { port } = server.address() as AddressInfo;
    const res = await fetch(`http://127.0.0.1:${port}/bytes`);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(res.headers.get('content-length')).toBe(String(Buffer.byteLength('{"name":"caf\u00e9"}')));
    expect(await res.json()).toEqual({ name: 'caf\u00e9' });
    expect(sendsJsonBytes(app)).toBe(true);
    // Express's own res.json would write the Buffer's JSON: such an application is told apart.
    expect(sendsJsonBytes({ response: { json: () => undefined } })).toBe(false);
  });
});
