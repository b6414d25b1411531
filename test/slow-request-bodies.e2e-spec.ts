import { connect, type Socket } from 'node:net';
import request from 'supertest';
import { PNG } from './support/fixtures.js';
import { eventually } from './support/wait.js';
import { ADMIN_PASSWORD, passwordToken, startTestApp, type TestApp } from './support/test-app.js';

/** Long enough that an answer which does not wait for the body comes well before it, on a busy machine too. */
const BODY_TIMEOUT_MS = 3000;

/** A client on a raw socket, from `localAddress` (any 127.x address is this machine's loopback). */
interface Client {
  socket: Socket;
  received: () => string;
  /** Resolves with the time from the call to the socket's close, or undefined if it is still open after `withinMs`. */
  closedWithin: (withinMs: number) => Promise<number | undefined>;
}

describe('Slow request bodies and connections per address are bounded', () => {
  let t: TestApp;
  let bearer: string;
  const sockets: Socket[] = [];
  const timers: NodeJS.Timeout[] = [];

  const open = async (localAddress = '127.0.0.1'): Promise<Client> => {
    const socket = connect({ port: Number(new URL(t.url).port), host: '127.0.0.1', localAddress });
    sockets.push(socket);
    socket.on('error', () => undefined);
    let received = '';
    socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
    const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    await new Promise((resolve) => socket.once('connect', resolve));
    return {
      socket,
      received: () => received,
      closedWithin: (withinMs) => {
        const started = Date.now();
        return Promise.race([
          closed.then(() => Date.now() - started),
          new Promise<undefined>((resolve) => timers.push(setTimeout(() => resolve(undefined), withinMs))),
        ]);
      },
    };
  };

  /**
   * Sends a request head announcing a body of `length` bytes (within the JSON and form limit, 100 kB, by default) and
   * its first byte, then one more byte every 100 ms.
   */
  const drip = async (head: string, contentType: string, length = 90_000): Promise<Client> => {
    const client = await open();
    client.socket.write(`${head}\r\nHost: x\r\nContent-Type: ${contentType}\r\nContent-Length: ${length}\r\n\r\n{`);
    const timer = setInterval(() => client.socket.writable && client.socket.write(' '), 100);
    timers.push(timer);
    return client;
  };

  beforeAll(async () => {
    t = await startTestApp({ HTTP_BODY_TIMEOUT: `${BODY_TIMEOUT_MS}ms`, HTTP_MAX_CONNECTIONS_PER_ADDRESS: '12' });
    bearer = `Bearer ${(await passwordToken(t.url, 'admin', ADMIN_PASSWORD)).access_token}`;
  });
  afterEach(() => {
    timers.splice(0).forEach((timer) => clearTimeout(timer));
    sockets.splice(0).forEach((socket) => socket.destroy());
  });
  afterAll(async () => t.close({ destroy: true }));

  it('answers a request that needs a token before reading its body, and closes the connection', async () => {
    const unauthenticated = await Promise.all([
      drip('POST /products HTTP/1.1', 'application/json'),
      drip('PUT /api/me/password HTTP/1.1', 'application/json'),
      drip('POST /api/webhooks HTTP/1.1', 'application/x-www-form-urlencoded'),
      drip('POST /files/product/1/cover HTTP/1.1', 'multipart/form-data; boundary=zz'),
    ]);
    for (const client of unauthenticated) {
      // Well before the body deadline: the answer does not wait for the body.
      expect(await client.closedWithin(BODY_TIMEOUT_MS - 1000)).toBeDefined();
      expect(client.received()).toMatch(/^HTTP\/1\.1 401 /);
    }
  });

  it('gives a JSON or form body HTTP_BODY_TIMEOUT to arrive, at the public token endpoints too', async () => {
    const before = (await t.http.get('/products?limit=100').expect(200)).body.total as number;
    const clients = await Promise.all([
      drip('POST /api/oauth/token HTTP/1.1', 'application/json'),
      drip('POST /api/oauth/revoke HTTP/1.1', 'application/x-www-form-urlencoded'),
      drip(`POST /products HTTP/1.1\r\nAuthorization: ${bearer}`, 'application/json'),
      // Over the size limit: body-parser reads it all before it answers 413.
      drip('POST /api/oauth/token HTTP/1.1', 'application/json', 1_000_000),
    ]);
    const started = Date.now();
    const closedAfter = await Promise.all(clients.map((client) => client.closedWithin(BODY_TIMEOUT_MS + 2000)));
    for (const ms of closedAfter) expect(ms).toBeDefined();
    // The deadline, not the idle timeout (30 s) nor the request timeout (1 h), closed them.
    expect(Date.now() - started).toBeGreaterThan(BODY_TIMEOUT_MS - 300);
    expect((await t.http.get('/products?limit=100').expect(200)).body.total).toBe(before);
  });

  it('leaves an upload its long deadline', async () => {
    const { id } = (await t.http.post('/products').send({ name: 'slow upload' }).expect(201)).body as { id: number };
    const client = await open();
    const head =
      `POST /files/product/${id}/cover HTTP/1.1\r\nHost: x\r\nAuthorization: ${bearer}\r\n` +
      'Content-Type: multipart/form-data; boundary=zz\r\nContent-Length: 100000\r\n\r\n' +
      '--zz\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n';
    client.socket.write(Buffer.concat([Buffer.from(head), PNG.subarray(0, 8)]));
    timers.push(setInterval(() => client.socket.writable && client.socket.write(Buffer.alloc(1)), 100));
    expect(await client.closedWithin(BODY_TIMEOUT_MS + 1000)).toBeUndefined();
  });

  it('refuses connections beyond HTTP_MAX_CONNECTIONS_PER_ADDRESS from one address, not from others', async () => {
    await eventually('the earlier tests’ connections closed', async () => {
      const server = t.app.getHttpServer() as { getConnections(cb: (error: unknown, n: number) => void): void };
      const n = await new Promise<number>((resolve) => server.getConnections((_error, count) => resolve(count)));
      return n === 0 ? true : undefined;
    });
    const held = await Promise.all(Array.from({ length: 12 }, () => open()));
    const extra = await open();
    expect(await extra.closedWithin(1000)).toBeDefined();
    expect(extra.received()).toBe('');
    // Another address is served meanwhile.
    const other = await open('127.0.0.2');
    other.socket.write('GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    expect(await other.closedWithin(5000)).toBeDefined();
    expect(other.received()).toMatch(/^HTTP\/1\.1 200 /);
    // A closed connection frees its place.
    held[0].socket.destroy();
    await eventually('a place freed', async () => {
      const res = await request(t.url)
        .get('/health')
        .set('Connection', 'close')
        .catch(() => undefined);
      return res?.status === 200 ? true : undefined;
    });
  });
});
