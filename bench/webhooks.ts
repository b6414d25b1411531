/**
 * The webhook figures on PostgreSQL: how fast a backlog drains to one healthy endpoint, and how long a new event takes
 * to reach it when nothing is queued. The backlog is made with the dispatcher off (WEBHOOK_DISPATCHER=off): one
 * endpoint for every event, then `POST /api/webhooks/{id}/ping` per event (each writes an event and its delivery in one
 * transaction, as a file change does); then the service is restarted with the dispatcher on.
 */
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import {
  adminToken,
  call,
  createDatabase,
  median,
  sleep,
  startService,
  type BenchDatabase,
  type RunningProcess,
} from './support.js';

export interface WebhookFigures {
  events: number;
  /** Seconds from the first delivery received to the last. */
  drainSeconds: number;
  deliveriesPerSecond: number;
  /** Seconds from spawning the restarted service to the last delivery (start-up included). */
  sinceStartSeconds: number;
  /** A new ping's event reaching the receiver, empty backlog: from the ping request to the delivery, ms. */
  latencyP50Ms: number;
  latencyMaxMs: number;
  latencySamplesMs: number[];
}

/** A node:http receiver that answers 200 at once and notes when each event id first arrived. */
class Receiver {
  readonly seen = new Map<string, number>();
  private waiters = new Map<string, (at: number) => void>();
  private readonly server: Server = createServer((req, res) => {
    const at = performance.now();
    const id = String(req.headers['x-webhook-id'] ?? '');
    req.resume();
    res.writeHead(200).end();
    if (!id || this.seen.has(id)) return;
    this.seen.set(id, at);
    this.waiters.get(id)?.(at);
    this.waiters.delete(id);
  });
  url = '';

  async start(): Promise<void> {
    await new Promise<void>((done) => this.server.listen(0, '127.0.0.1', done));
    this.url = `http://127.0.0.1:${(this.server.address() as { port: number }).port}/hook`;
  }

  /** Resolves with the arrival time of `id` (already arrived or not), or rejects after `timeoutMs`. */
  arrival(id: string, timeoutMs: number): Promise<number> {
    const at = this.seen.get(id);
    if (at !== undefined) return Promise.resolve(at);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`event ${id} not delivered within ${timeoutMs} ms`)), timeoutMs);
      this.waiters.set(id, (arrived) => {
        clearTimeout(timer);
        resolve(arrived);
      });
    });
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((done) => this.server.close(() => done()));
  }
}

async function untilSeen(receiver: Receiver, count: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (receiver.seen.size < count) {
    if (Date.now() > deadline)
      throw new Error(`only ${receiver.seen.size} of ${count} deliveries within ${timeoutMs} ms`);
    await sleep(20);
  }
}

/** Runs `count` tasks, at most `concurrency` at once. */
async function pool(count: number, concurrency: number, task: (index: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) await task(next++);
    }),
  );
}

/** Measures the drain rate of a backlog of `events` and the p50 delivery latency of `samples` single events. */
export async function measureWebhooks(logDir: string, events: number, samples: number): Promise<WebhookFigures> {
  const receiver = new Receiver();
  await receiver.start();
  const database: BenchDatabase = await createDatabase('postgres');
  let service: RunningProcess | undefined;
  const env = { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' };
  const log = join(logDir, 'webhooks-service.log');
  try {
    service = await startService(database, log, { ...env, WEBHOOK_DISPATCHER: 'off' });
    const token = await adminToken(service.url);
    const endpoint = await call<{ id: number }>(`${service.url}/api/webhooks`, 'POST', token, {
      url: receiver.url,
      events: ['*'],
      description: 'bench receiver',
    });
    const pingUrl = `${service.url}/api/webhooks/${endpoint.id}/ping`;
    const running = service;
    await pool(events, 8, async () => {
      await call(pingUrl, 'POST', token);
    });
    await running.stop();
    if (receiver.seen.size > 0) throw new Error('deliveries were sent while the dispatcher was off');

    const spawned = performance.now();
    service = await startService(database, log, { ...env, WEBHOOK_DISPATCHER: 'on' });
    await untilSeen(receiver, events, 300_000);
    const arrivals = [...receiver.seen.values()].sort((a, b) => a - b);
    const first = arrivals[0];
    const last = arrivals[arrivals.length - 1];
    const drainSeconds = (last - first) / 1000;

    await sleep(1_000);
    const latencies: number[] = [];
    const freshToken = await adminToken(service.url);
    const restartedPingUrl = `${service.url}/api/webhooks/${endpoint.id}/ping`;
    for (let i = 0; i < samples; i++) {
      const started = performance.now();
      const ping = await call<{ event_id: string }>(restartedPingUrl, 'POST', freshToken);
      latencies.push((await receiver.arrival(ping.event_id, 30_000)) - started);
      await sleep(100);
    }
    return {
      events,
      drainSeconds,
      deliveriesPerSecond: (events - 1) / Math.max(drainSeconds, 0.001),
      sinceStartSeconds: (last - spawned) / 1000,
      latencyP50Ms: median(latencies),
      latencyMaxMs: Math.max(...latencies),
      latencySamplesMs: latencies.map((ms) => Math.round(ms * 10) / 10),
    };
  } finally {
    await service?.stop();
    await receiver.stop();
    await database.drop();
  }
}
