import { jest } from '@jest/globals';
import type { Socket } from 'node:net';
import { Clock } from '@file-fields/nest';
import { PNG } from './support/fixtures.js';
import { startRawHttpServer } from './support/raw-http-server.js';
import { eventually } from './support/wait.js';
import { startTestApp, type TestApp } from './support/test-app.js';

/** What a raw receiver does once it has read a request; `ok` when its script has run out. */
type Behaviour = 'ok' | 'reset' | 'stall' | 'drip';

interface Exchange {
  eventId: string;
  openedAt: number;
  closedAt?: number;
}

interface RawReceiver {
  url: string;
  script: Behaviour[];
  exchanges: Exchange[];
  close(): Promise<void>;
}

/** Bytes the drip sends at one per 200 ms: 12 s, longer than the 10 s lease the app runs with. */
const DRIP_BYTES = 60;
/**
 * An attempt past its 2 s deadline must have been cut within this: half the lease, long before the drip would end.
 * A sender that ignored the deadline, or restarted it on every byte, fails; a slow machine's late timers do not.
 */
const CUT_WITHIN_MS = 5_000;
const HEAD = 'HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\n';

const behaviours: Record<Behaviour, (socket: Socket) => void> = {
  ok: (socket) => socket.end(`${HEAD}content-length: 2\r\nconnection: close\r\n\r\nok`),
  // Promises 1000 bytes, sends three, then answers with a TCP RST: the client's response stream errors.
  reset: (socket) =>
    socket.write(`${HEAD}content-length: 1000\r\n\r\nabc`, () => setTimeout(() => socket.resetAndDestroy(), 20)),
  stall: (socket) => socket.write(`${HEAD}content-length: 1000\r\n\r\n`),
  drip: (socket) => {
    socket.write(`${HEAD}content-length: ${DRIP_BYTES}\r\nconnection: close\r\n\r\n`);
    let sent = 0;
    const timer = setInterval(() => {
      socket.write('x');
      if (++sent === DRIP_BYTES) socket.end();
    }, 200);
    socket.on('close', () => clearInterval(timer));
  },
};

/** A raw receiver that plays `script`, one behaviour per request, and records when each exchange opened and closed. */
async function startRawReceiver(script: Behaviour[] = []): Promise<RawReceiver> {
  const exchanges: Exchange[] = [];
  const server = await startRawHttpServer((socket, request) => {
    const exchange: Exchange = { eventId: /x-webhook-id:\s*(\S+)/i.exec(request)?.[1] ?? '', openedAt: Date.now() };
    exchanges.push(exchange);
    socket.on('close', () => (exchange.closedAt = Date.now()));
    behaviours[script.shift() ?? 'ok'](socket);
  });
  return { url: `http://127.0.0.1:${server.port}/hooks`, script, exchanges, close: server.close };
}

interface AttemptView {
  attempted_at: string;
  status_code: number | null;
  error: string | null;
  duration_ms: number;
}
interface DeliveryView {
  status: string;
  attempts: number;
  next_attempt_at: string | null;
  attempt_log: AttemptView[];
}

// An unhandled rejection anywhere in the app fails the running test (Jest reports it), as it would kill the process.
describe('Webhooks against hostile receivers', () => {
  let t: TestApp;
  let receiver: RawReceiver;
  let endpointId: number;

  const delivery = async (): Promise<DeliveryView | undefined> =>
    (await t.http.get(`/api/webhooks/${endpointId}/deliveries`).expect(200)).body.items[0];
  const deliveryWith = (what: string, test: (d: DeliveryView) => boolean, ms?: number) =>
    eventually(what, async () => ((d) => (d && test(d) ? d : undefined))(await delivery()), ms);
  const uploadCover = async () => {
    const { id } = (await t.http.post('/products').send({ name: 'hostile' }).expect(201)).body;
    await t.http.post(`/files/product/${id}/cover`).attach('file', PNG, 'c.png').expect(201);
  };
  const expectTimeoutFloor = (attempt: AttemptView, next: string | null) =>
    expect(Date.parse(next ?? '') - Date.parse(attempt.attempted_at)).toBeGreaterThanOrEqual(60_000);

  beforeAll(async () => {
    t = await startTestApp({
      WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
      // Two seconds: a reset answer that a busy machine takes over a second to see must not count as a timeout.
      WEBHOOK_TIMEOUT: '2s',
      WEBHOOK_LEASE: '10s',
      WEBHOOK_POLL_INTERVAL: '50ms',
      WEBHOOK_RETRY_SCHEDULE: '100ms,150ms,200ms',
    });
  });
  afterAll(async () => {
    await t.close({ destroy: true });
  });
  const open = async (script: Behaviour[]) => {
    receiver = await startRawReceiver(script);
    endpointId = (
      await t.http
        .post('/api/webhooks')
        .send({ url: receiver.url, events: ['*'] })
        .expect(201)
    ).body.id;
  };
  afterEach(async () => {
    jest.restoreAllMocks();
    await t.http.delete(`/api/webhooks/${endpointId}`).expect(204);
    await receiver.close();
  });

  it('records a response reset mid-body as a failed attempt, stays up, and retries to success', async () => {
    await open(['reset', 'reset']);
    await uploadCover();
    const done = await deliveryWith('the delivery to succeed', (d) => d.status === 'succeeded');
    expect(done.attempts).toBe(3);
    expect(done.attempt_log.map((a) => a.status_code)).toEqual([null, null, 200]);
    for (const failed of done.attempt_log.slice(0, 2)) expect(failed.error).toMatch(/ECONNRESET|aborted/);
    expect(new Set(receiver.exchanges.map((e) => e.eventId)).size).toBe(1);
    await t.http.get(`/api/webhooks/${endpointId}`).expect(200);
  });

  it('records a receiver that sends headers and stalls as timed out after the deadline', async () => {
    await open(['stall']);
    await uploadCover();
    const pending = await deliveryWith('the first attempt', (d) => d.attempt_log.length === 1);
    const [attempt] = pending.attempt_log;
    expect(pending.status).toBe('pending');
    expect(attempt).toMatchObject({ status_code: null, error: expect.stringMatching(/ETIMEDOUT/) });
    expect(attempt.duration_ms).toBeGreaterThanOrEqual(1_950);
    expect(attempt.duration_ms).toBeLessThan(CUT_WITHIN_MS);
    expectTimeoutFloor(attempt, pending.next_attempt_at);
    expect(receiver.exchanges[0].closedAt).toBeDefined();

    const clock = t.app.get(Clock);
    const realNowMs = clock.nowMs.bind(clock);
    jest.spyOn(clock, 'nowMs').mockImplementation(() => realNowMs() + 61_000);
    const done = await deliveryWith('the retry to succeed', (d) => d.status === 'succeeded');
    expect(done.attempt_log.map((a) => a.status_code)).toEqual([null, 200]);
  });

  it('ends a dripping answer at the deadline, and sends the event once while that attempt is open', async () => {
    await open(['drip']);
    await uploadCover();
    const first = await eventually(
      'the drip to be cut',
      () => (receiver.exchanges[0]?.closedAt ? receiver.exchanges[0] : undefined),
      15_000,
    );
    expect(first.closedAt! - first.openedAt).toBeLessThan(CUT_WITHIN_MS);
    expect(receiver.exchanges.filter((e) => e.openedAt <= first.closedAt!)).toHaveLength(1);

    const pending = await deliveryWith('the attempt to be recorded', (d) => d.attempt_log.length === 1);
    const [attempt] = pending.attempt_log;
    expect(attempt).toMatchObject({ status_code: null, error: expect.stringMatching(/ETIMEDOUT/) });
    expect(attempt.duration_ms).toBeLessThan(CUT_WITHIN_MS);
    expectTimeoutFloor(attempt, pending.next_attempt_at);
  });
});
