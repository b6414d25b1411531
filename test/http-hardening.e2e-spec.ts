import { connect, type Socket } from 'node:net';
import type { Server } from 'node:http';
import request from 'supertest';
import { expectProblem } from './support/fixtures.js';
import { eventually } from './support/wait.js';
import { ADMIN_PASSWORD, passwordToken, startTestApp, type TestApp } from './support/test-app.js';

const nestedJson = (levels: number) => '['.repeat(levels) + ']'.repeat(levels);

describe('HTTP hardening: hostile bodies and queries are 400, responses are safe by default', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => t.close({ destroy: true }));

  it('refuses JSON nested 2,000 levels deep with 400 problem details, on every JSON route', async () => {
    for (const path of ['/products', '/api/roles', '/api/webhooks']) {
      const res = await t.http.post(path).set('Content-Type', 'application/json').send(nestedJson(2000));
      expectProblem(res, 400);
      expect(res.body.detail).toMatch(/nested deeper than 64 levels/);
    }
    await t.http.post('/products').send({ name: 'still works' }).expect(201);
  });

  it('answers the token endpoint invalid_request for deeply nested JSON or forms', async () => {
    const json = await request(t.url)
      .post('/api/oauth/token')
      .set('Content-Type', 'application/json')
      .send(`{"grant_type":${nestedJson(2000)}}`);
    expect(json.status).toBe(400);
    expect(json.body.error).toBe('invalid_request');
    const form = await request(t.url)
      .post('/api/oauth/token')
      .type('form')
      .send(`grant_type=password&a${'[b]'.repeat(40)}=1`);
    expect(form.status).toBe(400);
    expect(form.body.error).toBe('invalid_request');
  });

  it('refuses offsets beyond what a database takes with 400', async () => {
    for (const offset of ['99999999999999999999', '1e308', '2147483648']) {
      const res = await t.http.get(`/products?offset=${offset}`);
      expectProblem(res, 400, 'validation-failed');
    }
    await t.http.get('/products?offset=2147483647').expect(200);
  });

  it('sends nosniff and no-store on API answers, errors included', async () => {
    for (const res of [
      await t.http.get('/products').expect(200),
      await request(t.url).get('/products').expect(401),
      await t.http.get('/api/roles').expect(200),
    ]) {
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['cache-control']).toBe('no-store');
    }
  });
});

describe('HTTP hardening: connections are bounded', () => {
  let t: TestApp;
  const sockets: Socket[] = [];
  const open = async (): Promise<Socket> => {
    const { port } = new URL(t.url);
    const socket = connect(Number(port), '127.0.0.1');
    socket.on('error', () => undefined);
    sockets.push(socket);
    await new Promise((resolve) => socket.once('connect', resolve));
    return socket;
  };
  const closed = (socket: Socket) => new Promise<void>((resolve) => socket.once('close', () => resolve()));
  const connections = () =>
    new Promise<number>((resolve, reject) =>
      (t.app.getHttpServer() as Server).getConnections((error, n) => (error ? reject(error) : resolve(n))),
    );

  beforeAll(async () => {
    t = await startTestApp({ HTTP_MAX_CONNECTIONS: '5', HTTP_IDLE_TIMEOUT: '1s', HTTP_KEEP_ALIVE_TIMEOUT: '200ms' });
  });
  afterEach(() => sockets.splice(0).forEach((socket) => socket.destroy()));
  afterAll(async () => t.close({ destroy: true }));

  it('refuses connections beyond HTTP_MAX_CONNECTIONS and closes idle ones, then serves again', async () => {
    await eventually('no open connection', async () => ((await connections()) === 0 ? true : undefined));
    const held = await Promise.all(Array.from({ length: 5 }, open));
    const extra = await open();
    const started = Date.now();
    await closed(extra);
    expect(Date.now() - started).toBeLessThan(500);
    // Slow headers: one byte and then nothing. The idle timeout frees every held connection.
    held.forEach((socket) => socket.write('G'));
    await Promise.all(held.map(closed));
    expect(Date.now() - started).toBeLessThan(3000);
    await request(t.url).get('/health').expect(200);
  });

  it('closes a request whose body stalls, and stores nothing', async () => {
    const before = (await t.http.get('/products?limit=100').expect(200)).body.total as number;
    const token = `Bearer ${(await passwordToken(t.url, 'admin', ADMIN_PASSWORD)).access_token}`;
    await eventually('no open connection', async () => ((await connections()) === 0 ? true : undefined));
    const socket = await open();
    socket.write(
      'POST /products HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n' +
        `Authorization: ${token}\r\nContent-Length: 100\r\n\r\n{"name":`,
    );
    const started = Date.now();
    await closed(socket);
    expect(Date.now() - started).toBeLessThan(3000);
    expect((await t.http.get('/products?limit=100').expect(200)).body.total).toBe(before);
  });
});
