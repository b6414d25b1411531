/**
 * The webhook figures on PostgreSQL: how fast a backlog drains to one healthy endpoint, and how long a new event takes
 * to reach it when nothing is queued. The backlog is made with the dispatcher off (WEBHOOK_DISPATCHER=off): one
 * endpoint for every event, then a small PDF uploaded to an article's attachments and deleted again, a `file.created`
 * and a `file.deleted` event, each written with its delivery in the transaction of the change; then the service is
 * restarted with the dispatcher on (4 uploads at a time, the most one client may have in flight). Pings would be
 * simpler, but an endpoint takes 10 an hour.
 *
 * The endpoint signs in Standard Webhooks `v1` (HMAC-SHA256 with its secret, scheme `standard`) or `v1a` (Ed25519 with
 * the service's key, scheme `standard-v1a`); run.ts alternates the two.
 */
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { asymmetricSignatureOf, standardSignatureOf } from '../src/webhooks/sending/webhook-signer.js';
import {
  adminToken,
  call,
  createDatabase,
  median,
  sleep,
  startService,
  type BenchDatabase,
  type RunningProcess,
  uploadFile,
} from './support.js';

/** A minimal PDF: an attachment without image variants. */
const PDF = Buffer.from('%PDF-1.7\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');

/** The signatures compared, each with the endpoint's `signature_scheme` that makes it alone. */
export const SIGNATURES = { v1: 'standard', v1a: 'standard-v1a' } as const;
export type Signature = keyof typeof SIGNATURES;

export interface WebhookFigures {
  signature: Signature;
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
export class Receiver {
  readonly seen = new Map<string, number>();
  /** Ids that arrived more than once. */
  readonly repeated = new Set<string>();
  /** The versions seen in `webhook-signature` (`v1`, `v1a`). */
  readonly signatures = new Set<string>();
  private waiters = new Map<string, (at: number) => void>();
  private nextWaiter?: (at: number) => void;
  private readonly server: Server = createServer((req, res) => {
    const at = performance.now();
    const id = String(req.headers['x-webhook-id'] ?? '');
    req.resume();
    const signatures = String(req.headers['webhook-signature'] ?? '');
    for (const signature of signatures.split(' ')) if (signature) this.signatures.add(signature.split(',')[0]);
    res.writeHead(200).end();
    if (id && this.seen.has(id)) this.repeated.add(id);
    if (!id || this.seen.has(id)) return;
    this.seen.set(id, at);
    this.waiters.get(id)?.(at);
    this.waiters.delete(id);
    this.nextWaiter?.(at);
    this.nextWaiter = undefined;
  });
  url = '';

  async start(): Promise<void> {
    await new Promise<void>((done) => this.server.listen(0, '127.0.0.1', done));
    this.url = `http://127.0.0.1:${(this.server.address() as { port: number }).port}/hook`;
  }

  /** Resolves with the arrival time of the next delivery, or rejects after `timeoutMs`. */
  nextArrival(timeoutMs: number): Promise<number> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no delivery within ${timeoutMs} ms`)), timeoutMs);
      this.nextWaiter = (arrived) => {
        clearTimeout(timer);
        resolve(arrived);
      };
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

/**
 * Measures the drain rate of a backlog of `events` and the p50 delivery latency of `samples` single events, to an
 * endpoint signing with `signature`.
 */
export async function measureWebhooks(
  logDir: string,
  signature: Signature,
  events: number,
  samples: number,
): Promise<WebhookFigures> {
  // Pairs of events: an upload and its deletion.
  const total = Math.ceil(events / 2) * 2;
  const receiver = new Receiver();
  await receiver.start();
  const database: BenchDatabase = await createDatabase('postgres');
  let service: RunningProcess | undefined;
  const env = { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' };
  const log = join(logDir, `webhooks-${signature}-service.log`);
  try {
    service = await startService(database, log, { ...env, WEBHOOK_DISPATCHER: 'off' });
    const token = await adminToken(service.url);
    await call(`${service.url}/api/webhooks`, 'POST', token, {
      url: receiver.url,
      events: ['*'],
      signature_scheme: SIGNATURES[signature],
      description: 'bench receiver',
    });
    const article = await call<{ id: number }>(`${service.url}/articles`, 'POST', token, { title: 'Hooked' });
    const attachments = `/files/article/${article.id}/attachments`;
    const running = service;
    await pool(total / 2, 4, async () => {
      const created = await uploadFile(running.url, token, attachments, PDF, 'application/pdf');
      await call(`${running.url}/files/${created.id}`, 'DELETE', token, undefined, [204]);
    });
    await running.stop();
    if (receiver.seen.size > 0) throw new Error('deliveries were sent while the dispatcher was off');

    const spawned = performance.now();
    service = await startService(database, log, { ...env, WEBHOOK_DISPATCHER: 'on' });
    await untilSeen(receiver, total, 300_000);
    const arrivals = [...receiver.seen.values()].sort((a, b) => a - b);
    const first = arrivals[0];
    const last = arrivals[arrivals.length - 1];
    const drainSeconds = (last - first) / 1000;
    if ([...receiver.signatures].join(' ') !== signature) {
      throw new Error(`expected ${signature} signatures, received ${[...receiver.signatures].join(' ') || 'none'}`);
    }

    await sleep(1_000);
    const latencies: number[] = [];
    const freshToken = await adminToken(service.url);
    for (let i = 0; i < samples; i++) {
      const arrival = receiver.nextArrival(30_000);
      const started = performance.now();
      const created = await uploadFile(service.url, freshToken, attachments, PDF, 'application/pdf');
      latencies.push((await arrival) - started);
      const seen = receiver.seen.size;
      await call(`${service.url}/files/${created.id}`, 'DELETE', freshToken, undefined, [204]);
      await untilSeen(receiver, seen + 1, 30_000);
      await sleep(100);
    }
    return {
      signature,
      events: total,
      drainSeconds,
      deliveriesPerSecond: (total - 1) / Math.max(drainSeconds, 0.001),
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

export interface SigningCost {
  count: number;
  bodyBytes: number;
  /** CPU µs of this process per signature, by the service's own functions. */
  v1Us: number;
  v1aUs: number;
}

/**
 * The CPU of one `v1` and one `v1a` signature over `count` of each (after 1,000 each), of a 600-byte body: about a
 * `file.created` event's.
 */
export function measureSigningCost(count: number): SigningCost {
  const message = { id: `evt_${'0'.repeat(32)}`, timestamp: Math.floor(Date.now() / 1000), body: 'x'.repeat(600) };
  const secret = `whsec_${randomBytes(32).toString('base64')}`;
  const { privateKey } = generateKeyPairSync('ed25519');
  const cpuUsPerSignature = (sign: () => string): number => {
    for (let i = 0; i < 1_000; i++) sign();
    const before = process.cpuUsage();
    for (let i = 0; i < count; i++) sign();
    const used = process.cpuUsage(before);
    return (used.user + used.system) / count;
  };
  return {
    count,
    bodyBytes: message.body.length,
    v1Us: cpuUsPerSignature(() => standardSignatureOf(message, secret)),
    v1aUs: cpuUsPerSignature(() => asymmetricSignatureOf(message, privateKey)),
  };
}
