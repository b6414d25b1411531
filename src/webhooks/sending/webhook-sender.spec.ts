import type { Socket } from 'node:net';
import { startRawHttpServer } from '../../../test/support/raw-http-server.js';
import { WebhookSender } from './webhook-sender.js';
import { webhooksConfigFrom } from '../webhooks.config.js';

const TIMEOUT_MS = 500;
/**
 * Where a cut connection must end at the latest: ten times the deadline, long before any stalling receiver below would
 * end it (the drip takes 20 s, the others never end). A sender that ignored the deadline, or restarted it on every
 * byte, fails; a slow machine whose timers fire late does not.
 */
const CUT_WITHIN_MS = 10 * TIMEOUT_MS;
const HEAD = 'HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\n';

interface RawServer {
  url: string;
  /** When the server saw each connection close, in ms since the request was read. */
  closedAfterMs: number[];
  close(): Promise<void>;
}

/** A raw server that hands each socket to `answer` once the whole request has arrived. */
async function serve(answer: (socket: Socket) => void): Promise<RawServer> {
  const closedAfterMs: number[] = [];
  const server = await startRawHttpServer((socket) => {
    const readAt = Date.now();
    socket.on('close', () => closedAfterMs.push(Date.now() - readAt));
    answer(socket);
  });
  return { url: `http://127.0.0.1:${server.port}/hook`, closedAfterMs, close: server.close };
}

const drip = (socket: Socket) => {
  socket.write(`${HEAD}content-length: 100\r\n\r\n`);
  const timer = setInterval(() => socket.write('x'), 200);
  socket.on('close', () => clearInterval(timer));
};

describe('WebhookSender', () => {
  const sender = new WebhookSender(
    webhooksConfigFrom({ WEBHOOK_TIMEOUT: `${TIMEOUT_MS}ms`, WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' }),
  );
  let server: RawServer | undefined;
  const send = async (answer: (socket: Socket) => void) => {
    server = await serve(answer);
    return sender.send(server.url, '{"id":"evt_1"}', { 'Content-Type': 'application/json' });
  };
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('returns the status, Retry-After and body of a normal answer', async () => {
    const result = await send((socket) =>
      socket.end(`${HEAD}retry-after: 7\r\ncontent-length: 2\r\nconnection: close\r\n\r\nok`),
    );
    expect(result).toMatchObject({ statusCode: 200, retryAfter: '7', body: 'ok' });
    expect(result.error).toBeUndefined();
    expect(result.timedOut).toBeFalsy();
  });

  it('records a response reset mid-body as an error, without timing out', async () => {
    const result = await send((socket) =>
      socket.write(`${HEAD}content-length: 1000\r\n\r\nabc`, () => setTimeout(() => socket.resetAndDestroy(), 20)),
    );
    expect(result).toMatchObject({ error: expect.stringMatching(/ECONNRESET|aborted/), timedOut: false });
    expect(result.statusCode).toBeUndefined();
    expect(result.durationMs).toBeLessThan(TIMEOUT_MS);
  });

  it.each([
    ['sends headers, then stalls', (socket: Socket) => socket.write(`${HEAD}content-length: 1000\r\n\r\n`)],
    ['never answers at all', () => undefined],
    ['drips one byte every 200 ms', drip],
  ])('times out at the deadline a receiver that %s, and closes the connection', async (_name, answer) => {
    const result = await send(answer);
    expect(result).toMatchObject({ error: expect.stringMatching(/^ETIMEDOUT/), timedOut: true });
    expect(result.durationMs).toBeGreaterThanOrEqual(TIMEOUT_MS - 5);
    expect(result.durationMs).toBeLessThan(CUT_WITHIN_MS);
    await waitUntil(() => server!.closedAfterMs.length === 1);
    expect(server!.closedAfterMs[0]).toBeLessThan(CUT_WITHIN_MS);
  });

  it('keeps only the first 2 KiB of a 2 MB answer, and does not wait for the rest', async () => {
    // Half the promised body, then nothing: an answer is complete for us once its first 2 KiB are in.
    const result = await send((socket) => {
      socket.write(`${HEAD}content-length: ${2 * 1024 * 1024}\r\n\r\n`);
      socket.write(Buffer.alloc(1024 * 1024, 'a'));
    });
    expect(result).toMatchObject({ statusCode: 200, body: 'a'.repeat(2048) });
    expect(result.timedOut).toBeFalsy();
    expect(result.durationMs).toBeLessThan(TIMEOUT_MS);
  });

  it('reports a 302 without following it', async () => {
    const result = await send((socket) =>
      socket.end('HTTP/1.1 302 Found\r\nlocation: http://127.0.0.1:1/\r\ncontent-length: 0\r\n\r\n'),
    );
    expect(result).toMatchObject({ statusCode: 302, body: '' });
  });

  it('reports a refused connection and a malformed URL as errors', async () => {
    const refused = await serve(() => undefined);
    await refused.close();
    await expect(sender.send(refused.url, '{}', {})).resolves.toMatchObject({
      error: expect.stringMatching(/ECONNREFUSED/),
      timedOut: false,
    });
    await expect(sender.send('not a url', '{}', {})).resolves.toMatchObject({
      error: expect.stringMatching(/Invalid URL/),
    });
  });

  it('refuses a loopback destination unless private networks are allowed', async () => {
    const strict = new WebhookSender(webhooksConfigFrom({ WEBHOOK_TIMEOUT: `${TIMEOUT_MS}ms` }));
    server = await serve((socket) => socket.end(`${HEAD}content-length: 0\r\n\r\n`));
    // A name, not an IP literal: the guard runs at DNS lookup, which Node skips for literals.
    await expect(strict.send(server.url.replace('127.0.0.1', 'localhost'), '{}', {})).resolves.toMatchObject({
      error: expect.stringMatching(/^EBLOCKED/),
    });
  });
});

async function waitUntil(condition: () => boolean, ms = CUT_WITHIN_MS): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('Condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
