import type { Express, Request, Response } from 'express';
import { IncomingMessage, ServerResponse, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ServiceExpressAdapter } from './express-adapter.js';

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
    server = adapter.getHttpServer();
    server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => {
      born.push({ request: Object.getPrototypeOf(req) as object, response: Object.getPrototypeOf(res) as object });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  });

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
});
