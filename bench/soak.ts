/**
 * Soak run (not a test; CI runs it for 2 minutes): `npm run soak`. Starts the built service as `npm start` does (SQLite
 * in a fresh DATA_DIR; PostgreSQL in a schema of its own when TEST_DATABASE_URL is set) with a local webhook receiver
 * subscribed to every event, then sends it a mixed load at a steady rate for SOAK_MINUTES: reads of one product and of
 * pages of products, products created, renamed and deleted (a pool of its own kept near 200), uploads (PDFs of 4 KiB
 * to 1 MiB to a gallery, 1-pixel PNGs as covers, which makes image variants), client_credentials token requests, and
 * reads of deleted products (404: the only non-2xx answer expected). Webhook deliveries follow from the uploads and the
 * deletions.
 *
 * Checks, each a "test" of the SOAK_REPORT file: the least-squares slope of the service's resident memory (VmRSS,
 * sampled every second) over the last half of the load is at most SOAK_RSS_SLOPE_LIMIT MiB per minute; no answer was
 * unexpected (another status, or no answer); after a drain, the receiver got every event of the endpoint's delivery
 * log, by id, exactly once. Prints the figures, writes them to bench/results/soak-<time>.json and exits non-zero when
 * a check fails.
 *
 * Settings (environment): SOAK_MINUTES (20), SOAK_RATE (50 requests/s), SOAK_RSS_SLOPE_LIMIT (MiB per minute; the
 * default below), SOAK_REPORT (a file for `{ numPassedTests, numFailedTests, … }`), SOAK_TIMEOUT_MINUTES (SOAK_MINUTES
 * + 10). Other service variables in the environment are passed through.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { setting } from './settings.js';
import {
  adminToken,
  call,
  cpuTimeMs,
  createDatabase,
  killAll,
  PNG,
  residentMiB,
  ROOT,
  sleep,
  startCommand,
  startService,
  type BenchDatabase,
  type RunningProcess,
} from './support.js';
import { fmt } from './tables.js';
import { Receiver } from './webhooks.js';

const MINUTES = setting('SOAK_MINUTES', 20);
/** Requests started per second, whatever the answers' pace (up to MAX_IN_FLIGHT open at once). */
const RATE = Math.max(1, setting('SOAK_RATE', 50));
/**
 * MiB per minute, after a full collection. A leak of 1 KiB per request grows the RSS by 1.4-2.9 MiB a minute at 25-50
 * answers a second (a busy machine answers 25-33 of the 50 sent). A healthy service still rises after its start
 * (JIT code, pools, the allocator's arenas), and the last half of a short run holds that tail: measured 4.0 MiB/min
 * over minute 2, 1.1 over minutes 3-6, on a machine with a load average of 12. So the default is 1.5 + 8 / SOAK_MINUTES:
 * 1.9 for the 20-minute run, which a 1 KiB leak would exceed; 5.5 for CI's 2 minutes, which a healthy run stays under but
 * which only catches a leak of several KiB per request (measured over 2 minutes at 17-24 answers a second: 1 KiB
 * per request 4.8, 8 KiB 5.6).
 */
const SLOPE_LIMIT = setting('SOAK_RSS_SLOPE_LIMIT', 1.5 + 8 / Math.max(MINUTES, 1));
const TIMEOUT_MINUTES = setting('SOAK_TIMEOUT_MINUTES', MINUTES + 10);
const REPORT_FILE = process.env.SOAK_REPORT;

/** Requests open at once; a request due beyond that is not sent (counted as skipped: the service fell behind). */
const MAX_IN_FLIGHT = 64;
/** The products of the load: created below it, deleted above it. */
const POOL_TARGET = 200;
/** Below the service's UPLOADS_PER_PRINCIPAL (4), which would answer 429. */
const MAX_UPLOADS_IN_FLIGHT = 3;
/** The product gallery's maxCount. */
const GALLERY_MAX = 30;
/** The administrator's token lives an hour (ACCESS_TOKEN_TTL); taken again well before. */
const ADMIN_TOKEN_REFRESH_MS = 20 * 60_000;

/** The kinds of request, and how many of every 100 are of each. */
const MIX = {
  read: 45,
  list: 15,
  'read deleted': 2,
  'create or delete': 14,
  rename: 12,
  'upload PDF': 3,
  'upload cover': 3,
  token: 6,
} as const;
type Choice = keyof typeof MIX;
type Kind = Exclude<Choice, 'create or delete'> | 'create' | 'delete';
const KINDS: Kind[] = [
  'read',
  'list',
  'read deleted',
  'create',
  'rename',
  'delete',
  'upload PDF',
  'upload cover',
  'token',
];

interface KindFigures {
  sent: number;
  statuses: Record<string, number>;
  /** Answers of another status than expected, and requests without an answer. */
  unexpected: number;
  meanMs: number;
  maxMs: number;
}

/** A few unexpected answers, for a look. */
interface Failure {
  kind: string;
  request: string;
  status: number | 'no answer';
  body: string;
}

interface Product {
  id: number;
  /** Requests under way about it: it is deleted only when there are none. */
  busy: number;
  uploading: boolean;
  gallery: number;
}

/** PDF bytes of every size are cut from one random MiB: the content matters little, the size does. */
const PDF_HEAD = Buffer.from('%PDF-1.7\n1 0 obj <<>> endobj\n');
const PDF_TAIL = Buffer.from('\ntrailer <<>>\n%%EOF\n');
const RANDOM = randomBytes(1024 * 1024);

/** A size between 4 KiB and 1 MiB, spread evenly on a log scale (most uploads small, some large). */
const uploadSize = () => Math.round(4096 * 256 ** Math.random());

const pick = <T>(items: T[]): T | undefined => items[Math.floor(Math.random() * items.length)];

/** The load: what it knows of the service's data, and the figures of what it sent. */
class Load {
  readonly figures = Object.fromEntries(
    KINDS.map((kind) => [kind, { sent: 0, statuses: {}, unexpected: 0, meanMs: 0, maxMs: 0 }]),
  ) as Record<Kind, KindFigures>;
  readonly failures: Failure[] = [];
  readonly products: Product[] = [];
  /** Products deleted lately (the last 100), for the reads that expect 404. */
  private readonly deleted: number[] = [];
  private uploads = 0;
  private created = 0;
  /** Successful uploads: each makes at least one event. */
  uploaded = 0;

  constructor(
    private readonly url: string,
    public admin: string,
    private reader: string,
    private readonly integrations: Array<{ id: string; secret: string; busy: boolean }>,
  ) {}

  /** Sends one request of a kind drawn from MIX; never throws. */
  async step(): Promise<void> {
    let roll = Math.random() * 100;
    let choice: Choice = 'read';
    for (const [name, weight] of Object.entries(MIX) as Array<[Choice, number]>) {
      if ((roll -= weight) < 0) {
        choice = name;
        break;
      }
    }
    try {
      await this.run(choice);
    } catch (error) {
      this.failures.push({ kind: choice, request: 'none sent', status: 'no answer', body: String(error) });
    }
  }

  private async run(choice: Choice): Promise<void> {
    if (choice === 'list') {
      const offset = Math.floor(Math.random() * POOL_TARGET);
      await this.send('list', 'GET', `/products?limit=20&offset=${offset}`, { token: this.reader });
      return;
    }
    if (choice === 'read deleted' && this.deleted.length > 0) {
      await this.send('read deleted', 'GET', `/products/${pick(this.deleted)}`, {
        token: this.reader,
        expected: [404],
      });
      return;
    }
    if (choice === 'create or delete') {
      await (this.products.length < POOL_TARGET ? this.create() : this.delete());
      return;
    }
    if (choice === 'token') {
      const integration = this.integrations.find((candidate) => !candidate.busy);
      // The failure limiter counts a client's requests in flight: one at a time per client.
      if (integration) {
        integration.busy = true;
        const body = { grant_type: 'client_credentials', client_id: integration.id, client_secret: integration.secret };
        const answer = await this.send('token', 'POST', '/api/oauth/token', { json: body });
        integration.busy = false;
        const token = (answer?.body as { access_token?: string } | undefined)?.access_token;
        if (token) this.reader = token;
        return;
      }
    }
    if (choice === 'upload PDF' || choice === 'upload cover') {
      const product = this.uploads < MAX_UPLOADS_IN_FLIGHT ? this.forUpload(choice === 'upload PDF') : undefined;
      if (product) {
        await this.about(product, () =>
          choice === 'upload PDF' ? this.uploadPdf(product) : this.upload('upload cover', product, 'cover', PNG),
        );
        return;
      }
    }
    const product = pick(this.products);
    if (!product) return;
    if (choice === 'rename') {
      const name = `Soak ${product.id}, renamed ${Date.now()}`;
      await this.about(product, () =>
        this.send('rename', 'PATCH', `/products/${product.id}`, { token: this.admin, json: { name } }),
      );
    } else {
      await this.about(product, () => this.send('read', 'GET', `/products/${product.id}`, { token: this.reader }));
    }
  }

  /** Runs `work` about a product, which is not deleted meanwhile. */
  private async about(product: Product, work: () => Promise<unknown>): Promise<void> {
    product.busy++;
    try {
      await work();
    } finally {
      product.busy--;
    }
  }

  /** A product without an upload under way (one field's uploads one after the other), with room in its gallery. */
  private forUpload(toGallery: boolean): Product | undefined {
    for (let tries = 0; tries < 10; tries++) {
      const product = pick(this.products);
      if (product && !product.uploading && (!toGallery || product.gallery < GALLERY_MAX)) return product;
    }
    return undefined;
  }

  private async uploadPdf(product: Product): Promise<void> {
    const size = uploadSize();
    const start = Math.floor(Math.random() * (RANDOM.length - size + 1));
    const bytes = Buffer.concat([PDF_HEAD, RANDOM.subarray(start, start + size), PDF_TAIL]);
    if (await this.upload('upload PDF', product, 'gallery', bytes)) product.gallery++;
  }

  private async create(): Promise<void> {
    const n = ++this.created;
    const json = { name: `Soak ${n}`, description: 'A product of the soak run. '.repeat(n % 40) };
    const answer = await this.send('create', 'POST', '/products', { token: this.admin, json, expected: [201] });
    const id = (answer?.body as { id?: number } | undefined)?.id;
    if (answer?.status === 201 && typeof id === 'number')
      this.products.push({ id, busy: 0, uploading: false, gallery: 0 });
  }

  /** Deletes a product no request is under way about (with its files: `file.deleted` events). */
  private async delete(): Promise<void> {
    for (let tries = 0; tries < 10; tries++) {
      const index = Math.floor(Math.random() * this.products.length);
      if (this.products[index]?.busy !== 0) continue;
      const [product] = this.products.splice(index, 1);
      const answer = await this.send('delete', 'DELETE', `/products/${product.id}`, {
        token: this.admin,
        expected: [204],
      });
      if (answer?.status === 204) this.deleted.push(product.id);
      if (this.deleted.length > 100) this.deleted.shift();
      return;
    }
  }

  private async upload(kind: Kind, product: Product, field: 'cover' | 'gallery', bytes: Buffer): Promise<boolean> {
    const type = field === 'cover' ? 'image/png' : 'application/pdf';
    const form = new FormData();
    form.append('file', new Blob([bytes], { type }), field === 'cover' ? 'cover.png' : 'document.pdf');
    this.uploads++;
    product.uploading = true;
    try {
      const path = `/files/product/${product.id}/${field}`;
      // 200: a cover replaced.
      const expected = field === 'cover' ? [200, 201] : [201];
      const answer = await this.send(kind, 'POST', path, { token: this.admin, form, expected });
      const stored = answer !== undefined && expected.includes(answer.status);
      if (stored) this.uploaded++;
      return stored;
    } finally {
      this.uploads--;
      product.uploading = false;
    }
  }

  /** Sends one request and notes its status and time; undefined when no answer came. */
  async send(
    kind: Kind,
    method: string,
    path: string,
    options: { token?: string; json?: unknown; form?: FormData; expected?: number[] },
  ): Promise<{ status: number; body: unknown } | undefined> {
    const figures = this.figures[kind];
    const expected = options.expected ?? [200];
    const started = performance.now();
    let status: number | 'no answer' = 'no answer';
    let text = '';
    try {
      const res = await fetch(`${this.url}${path}`, {
        method,
        headers: {
          ...(options.json === undefined ? {} : { 'Content-Type': 'application/json' }),
          ...(options.token ? { Authorization: `Bearer ${options.token}` } : {}),
        },
        body: options.form ?? (options.json === undefined ? undefined : JSON.stringify(options.json)),
        signal: AbortSignal.timeout(30_000),
      });
      status = res.status;
      text = await res.text();
    } catch (error) {
      text = String(error);
    }
    const ms = performance.now() - started;
    figures.sent++;
    figures.meanMs += (ms - figures.meanMs) / figures.sent;
    figures.maxMs = Math.max(figures.maxMs, ms);
    figures.statuses[status] = (figures.statuses[status] ?? 0) + 1;
    if (status === 'no answer' || !expected.includes(status)) {
      figures.unexpected++;
      if (this.failures.length < 20)
        this.failures.push({ kind, request: `${method} ${path}`, status, body: text.slice(0, 300) });
      return status === 'no answer' ? undefined : { status, body: undefined };
    }
    try {
      return { status, body: text ? JSON.parse(text) : undefined };
    } catch {
      return { status, body: text };
    }
  }
}

/** The least-squares slope of y over x. */
function slope(points: Array<[number, number]>): number {
  const n = points.length;
  if (n < 2) return 0;
  const meanX = points.reduce((sum, [x]) => sum + x, 0) / n;
  const meanY = points.reduce((sum, [, y]) => sum + y, 0) / n;
  let sxy = 0;
  let sxx = 0;
  for (const [x, y] of points) {
    sxy += (x - meanX) * (y - meanY);
    sxx += (x - meanX) ** 2;
  }
  return sxx === 0 ? 0 : sxy / sxx;
}

/**
 * A DevTools protocol session with the service, which listens for one on 127.0.0.1 (`--inspect=127.0.0.1:0`), so that
 * each memory sample is taken after a full garbage collection. Without it the samples follow V8's collections, not
 * what the service keeps: its heap grew to 220 MiB and fell back to 55 every few minutes under this load (RSS 460 →
 * 290 MiB), a sawtooth a hundred times the slope of the leak this run is meant to find.
 */
class Inspector {
  private next = 0;
  private readonly waiting = new Map<number, { resolve: (result: unknown) => void; reject: (error: Error) => void }>();

  private constructor(private readonly socket: WebSocket) {
    socket.addEventListener('message', (event) => {
      const message = JSON.parse(String(event.data)) as { id?: number; result?: unknown; error?: { message: string } };
      const waiter = message.id === undefined ? undefined : this.waiting.get(message.id);
      if (!waiter || message.id === undefined) return;
      this.waiting.delete(message.id);
      if (message.error) waiter.reject(new Error(message.error.message));
      else waiter.resolve(message.result);
    });
  }

  /** Connects to the inspector whose address the service printed into `logFile` when it started. */
  static async open(logFile: string): Promise<Inspector> {
    const url = /Debugger listening on (ws:\/\/127\.0\.0\.1:\d+\/\S+)/.exec(await readFile(logFile, 'utf8'))?.[1];
    if (!url) throw new Error(`the service did not print its inspector's address into ${logFile}`);
    const socket = new WebSocket(url);
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no connection to ${url} within 10 s`)), 10_000);
      socket.addEventListener('open', () => (clearTimeout(timer), resolve()), { once: true });
      socket.addEventListener('error', () => (clearTimeout(timer), reject(new Error(`cannot connect to ${url}`))), {
        once: true,
      });
    });
    return new Inspector(socket);
  }

  send(method: string, params: object = {}): Promise<unknown> {
    const id = ++this.next;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiting.delete(id);
        reject(new Error(`${method}: no answer within 30 s`));
      }, 30_000);
      this.waiting.set(id, {
        resolve: (result) => (clearTimeout(timer), resolve(result)),
        reject: (error) => (clearTimeout(timer), reject(error)),
      });
      this.socket.send(JSON.stringify({ id, method, params }));
    });
  }

  /** A full collection, then the heap the service still uses, in MiB. */
  async collect(): Promise<number> {
    await this.send('HeapProfiler.collectGarbage');
    const answer = (await this.send('Runtime.evaluate', {
      expression: 'process.memoryUsage().heapUsed',
      returnByValue: true,
    })) as { result: { value: number } };
    return answer.result.value / 1024 ** 2;
  }

  close(): void {
    this.socket.close();
  }
}

/** One memory sample: minutes since the load began, RSS and V8 heap in use after a full collection, in MiB. */
type Sample = [minutes: number, rssMiB: number, heapMiB: number];

/** Samples the service's memory about once a second until `stop()`; the samples and the peak RSS (VmHWM). */
function sampleMemory(service: RunningProcess, inspector: Inspector) {
  const samples: Sample[] = [];
  let peakMiB = 0;
  let stopped = false;
  let collectionMs = 0;
  const started = performance.now();
  const sampling = (async () => {
    while (!stopped) {
      const at = performance.now();
      const heap = await inspector.collect();
      collectionMs += performance.now() - at;
      const rss = await residentMiB(service.pid);
      if (rss.now > 0) samples.push([(at - started) / 60_000, rss.now, heap]);
      peakMiB = Math.max(peakMiB, rss.peak);
      await sleep(Math.max(0, 1_000 - (performance.now() - at)));
    }
  })();
  return {
    samples,
    /** The peak RSS, and the mean time of a collection (the cost of sampling this way), in ms. */
    stop: async () => {
      stopped = true;
      await sampling;
      return { peakMiB, collectionMs: collectionMs / Math.max(1, samples.length) };
    },
  };
}

/**
 * Sends the load at RATE requests per second until `until` (performance.now()); then waits (at most a minute) for the
 * requests still open.
 */
async function drive(load: Load, service: RunningProcess, until: number, samples: Sample[]) {
  const open = new Set<Promise<void>>();
  let skipped = 0;
  const started = performance.now();
  let adminTokenAt = started;
  const interval = 1_000 / RATE;
  let due = started;
  let lastProgress = started;
  while (performance.now() < until) {
    if (performance.now() - adminTokenAt > ADMIN_TOKEN_REFRESH_MS) {
      load.admin = await adminToken(service.url);
      adminTokenAt = performance.now();
    }
    if (open.size < MAX_IN_FLIGHT) {
      const request: Promise<void> = load.step().finally(() => open.delete(request));
      open.add(request);
    } else {
      skipped++;
    }
    due += interval;
    const wait = due - performance.now();
    if (wait > 0) await sleep(wait);
    // Far behind (the event loop was held up): go on at the rate from now rather than in a burst.
    else if (wait < -1_000) due = performance.now();
    if (performance.now() - lastProgress > 60_000) {
      lastProgress = performance.now();
      const sent = Object.values(load.figures).reduce((sum, kind) => sum + kind.sent, 0);
      const rss = samples.at(-1)?.[1];
      process.stderr.write(
        `  soak: ${fmt((lastProgress - started) / 60_000, 0)} of ${MINUTES} min, ${fmt(sent)} answers, ` +
          `RSS ${rss === undefined ? 'n/a' : fmt(rss, 1)} MiB\n`,
      );
    }
  }
  for (const deadline = performance.now() + 60_000; open.size > 0 && performance.now() < deadline;) await sleep(100);
  return { skipped, stillOpen: open.size, seconds: (performance.now() - started) / 1000 };
}

interface Delivery {
  event_id: string;
  event: string;
  status: string;
}

/**
 * Waits until the endpoint has no pending delivery (at most `timeoutMs`), then compares its whole delivery log with
 * what the receiver got.
 */
async function checkDeliveries(url: string, token: string, endpointId: number, receiver: Receiver, timeoutMs: number) {
  const started = Date.now();
  const deliveries = `${url}/api/webhooks/${endpointId}/deliveries`;
  let pending = Infinity;
  while (Date.now() - started < timeoutMs) {
    pending = (await call<{ total: number }>(`${deliveries}?status=pending&limit=1`, 'GET', token)).total;
    if (pending === 0) break;
    await sleep(250);
  }
  const drainSeconds = (Date.now() - started) / 1000;
  const log: Delivery[] = [];
  for (let offset = 0, total = 1; offset < total; offset += 100) {
    const page = await call<{ items: Delivery[]; total: number }>(
      `${deliveries}?limit=100&offset=${offset}`,
      'GET',
      token,
    );
    total = page.total;
    log.push(...page.items);
  }
  const ids = new Set(log.map((delivery) => delivery.event_id));
  const count = (values: string[]) =>
    values.reduce<Record<string, number>>((counts, value) => ({ ...counts, [value]: (counts[value] ?? 0) + 1 }), {});
  return {
    events: ids.size,
    deliveries: log.length,
    byEvent: count(log.map((delivery) => delivery.event)),
    byStatus: count(log.map((delivery) => delivery.status)),
    pendingAfterDrain: pending,
    drainSeconds,
    received: receiver.seen.size,
    missing: [...ids].filter((id) => !receiver.seen.has(id)).length,
    /** Received, but not in the log. */
    unknown: [...receiver.seen.keys()].filter((id) => !ids.has(id)).length,
    repeated: receiver.repeated.size,
  };
}

interface Check {
  name: string;
  passed: boolean;
  detail: string;
}

/** `{ numPassedTests, numFailedTests, … }` as jest's --json writes it, one test per check. */
function jestReport(checks: Check[]) {
  const failed = checks.filter((check) => !check.passed).length;
  return {
    numTotalTests: checks.length,
    numPassedTests: checks.length - failed,
    numFailedTests: failed,
    success: failed === 0,
    testResults: [
      {
        name: 'npm run soak',
        status: failed === 0 ? 'passed' : 'failed',
        assertionResults: checks.map((check) => ({
          title: check.name,
          fullName: `soak ${check.name}`,
          status: check.passed ? 'passed' : 'failed',
          failureMessages: check.passed ? [] : [check.detail],
        })),
      },
    ],
  };
}

const CHECK_NAMES = ['memory slope', 'unexpected non-2xx', 'webhook delivery'];

async function main(): Promise<void> {
  const startedAt = new Date();
  const kind = process.env.TEST_DATABASE_URL ? 'postgres' : 'sqlite';
  const command = startCommand();
  const header = [
    `# npm run soak, ${startedAt.toISOString()}`,
    `Node.js ${process.version}, ${process.platform}/${process.arch}; service: node ${[...command.nodeArgs, command.script].join(' ')} (as "npm start") on ${kind === 'sqlite' ? 'SQLite' : 'PostgreSQL'}`,
    `load: ${MINUTES} min at ${fmt(RATE)} requests/s; RSS slope limit ${fmt(SLOPE_LIMIT, 2)} MiB/min over the last half`,
  ];
  console.log(header.join('\n'));
  const logDir = await mkdtemp(join(tmpdir(), 'ffs-soak-logs-'));
  const receiver = new Receiver();
  let database: BenchDatabase | undefined;
  let service: RunningProcess | undefined;
  let inspector: Inspector | undefined;
  const report: Record<string, unknown> = {
    startedAt: startedAt.toISOString(),
    node: process.version,
    platform: `${process.platform}/${process.arch}`,
    database: kind,
    startCommand: command,
    settings: { minutes: MINUTES, rate: RATE, slopeLimitMiBPerMinute: SLOPE_LIMIT },
  };
  let checks: Check[];
  try {
    await receiver.start();
    database = await createDatabase(kind);
    service = await startService(database, join(logDir, 'service.log'), { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' }, [
      '--inspect=127.0.0.1:0',
    ]);
    const { url } = service;
    const admin = await adminToken(url);
    await call(`${url}/api/roles`, 'POST', admin, { name: 'soak-reader', permissions: ['product:read'] });
    const integrations: Array<{ id: string; secret: string; busy: boolean }> = [];
    for (let i = 0; i < 2; i++) {
      const created = await call<{ access_key_id: string; secret_access_key: string }>(
        `${url}/api/integrations`,
        'POST',
        admin,
        { label: `soak ${i}`, role: 'soak-reader' },
      );
      integrations.push({ id: created.access_key_id, secret: created.secret_access_key, busy: false });
    }
    const endpoint = await call<{ id: number }>(`${url}/api/webhooks`, 'POST', admin, {
      url: receiver.url,
      events: ['*'],
      description: 'soak receiver',
    });
    const reader = await call<{ access_token: string }>(`${url}/api/oauth/token`, 'POST', undefined, {
      grant_type: 'client_credentials',
      client_id: integrations[0].id,
      client_secret: integrations[0].secret,
    });
    const load = new Load(url, admin, reader.access_token, integrations);
    for (let i = 0; i < POOL_TARGET; i++) {
      const product = await call<{ id: number }>(`${url}/products`, 'POST', admin, { name: `Soak seed ${i}` });
      load.products.push({ id: product.id, busy: 0, uploading: false, gallery: 0 });
    }
    const cpuBefore = await cpuTimeMs(service.pid);
    process.stderr.write(`  soak: ${MINUTES} min of load from now\n`);
    inspector = await Inspector.open(service.logFile);
    const sampler = sampleMemory(service, inspector);
    const driven = await drive(load, service, performance.now() + MINUTES * 60_000, sampler.samples);
    const { peakMiB, collectionMs } = await sampler.stop();
    const cpuAfter = await cpuTimeMs(service.pid);

    const webhooks = await checkDeliveries(url, load.admin, endpoint.id, receiver, 180_000);
    const { samples } = sampler;
    const lastHalf = samples.slice(Math.floor(samples.length / 2));
    const round = (mib: number) => Math.round(mib * 10) / 10;
    const memory = {
      startMiB: samples[0]?.[1] ?? 0,
      peakMiB,
      endMiB: samples.at(-1)?.[1] ?? 0,
      slopeMiBPerMinute: slope(lastHalf.map(([minutes, rss]) => [minutes, rss])),
      heapSlopeMiBPerMinute: slope(lastHalf.map(([minutes, , heap]) => [minutes, heap])),
      collectionMs,
      samples: samples.length,
      lastHalfFrom: lastHalf[0]?.[0] ?? 0,
      rssMiB: samples.map(([, rss]) => round(rss)),
      heapMiB: samples.map(([, , heap]) => round(heap)),
    };
    const answers = Object.values(load.figures).reduce((sum, figures) => sum + figures.sent, 0);
    const unexpected = Object.values(load.figures).reduce((sum, figures) => sum + figures.unexpected, 0);
    const cpuShare =
      cpuBefore === undefined || cpuAfter === undefined ? undefined : (cpuAfter - cpuBefore) / (driven.seconds * 1000);
    Object.assign(report, {
      requests: load.figures,
      answers,
      ratePerSecond: answers / driven.seconds,
      skipped: driven.skipped,
      stillOpenAfterLoad: driven.stillOpen,
      serviceCpuShare: cpuShare,
      successfulUploads: load.uploaded,
      failures: load.failures,
      memory,
      webhooks,
    });
    checks = [
      {
        name: CHECK_NAMES[0],
        passed: lastHalf.length >= 10 && memory.slopeMiBPerMinute <= SLOPE_LIMIT,
        detail:
          `RSS slope over the last half: ${fmt(memory.slopeMiBPerMinute, 2)} MiB/min (limit ${fmt(SLOPE_LIMIT, 2)}), ` +
          `from ${lastHalf.length} samples`,
      },
      {
        name: CHECK_NAMES[1],
        passed: unexpected === 0 && driven.stillOpen === 0 && load.failures.length === 0,
        detail:
          `${unexpected} unexpected answers of ${answers}, ${driven.stillOpen} requests unanswered a minute after the load` +
          (load.failures.length ? `; first: ${JSON.stringify(load.failures[0])}` : ''),
      },
      {
        name: CHECK_NAMES[2],
        passed:
          webhooks.pendingAfterDrain === 0 &&
          webhooks.missing === 0 &&
          webhooks.unknown === 0 &&
          webhooks.repeated === 0 &&
          webhooks.events === webhooks.deliveries &&
          webhooks.events >= load.uploaded &&
          (webhooks.byStatus.succeeded ?? 0) === webhooks.deliveries,
        detail:
          `${webhooks.events} events (${load.uploaded} successful uploads), ${webhooks.received} received; ` +
          `${webhooks.missing} missing, ${webhooks.repeated} more than once, ${webhooks.unknown} unknown, ` +
          `${webhooks.pendingAfterDrain} pending after the drain; deliveries by status ${JSON.stringify(webhooks.byStatus)}`,
      },
    ];
    console.log(
      [
        '',
        '| kind | requests | answers by status | unexpected | mean ms | max ms |',
        '|---|---:|---|---:|---:|---:|',
        ...KINDS.map((name) => {
          const figures = load.figures[name];
          const statuses = Object.entries(figures.statuses).map(([status, n]) => `${status}: ${fmt(n)}`);
          return (
            `| ${name} | ${fmt(figures.sent)} | ${statuses.join(', ')} | ${figures.unexpected} | ` +
            `${fmt(figures.meanMs, 1)} | ${fmt(figures.maxMs, 0)} |`
          );
        }),
        '',
        `${fmt(answers)} answers in ${fmt(driven.seconds, 0)} s (${fmt(answers / driven.seconds, 1)}/s), ` +
          `${fmt(driven.skipped)} skipped (over ${MAX_IN_FLIGHT} open); service CPU ` +
          `${cpuShare === undefined ? 'n/a' : `${fmt(cpuShare * 100, 0)} % of a core`}`,
        `RSS MiB after a full collection: start ${fmt(memory.startMiB, 1)}, end ${fmt(memory.endMiB, 1)}, slope ` +
          `of the last half (${lastHalf.length} samples from minute ${fmt(memory.lastHalfFrom, 1)}) ` +
          `${fmt(memory.slopeMiBPerMinute, 2)} MiB/min (limit ${fmt(SLOPE_LIMIT, 2)}); peak (VmHWM) ` +
          `${fmt(memory.peakMiB, 1)}; V8 heap in use ${fmt(samples[0]?.[2] ?? 0, 1)} → ${fmt(samples.at(-1)?.[2] ?? 0, 1)}, ` +
          `slope ${fmt(memory.heapSlopeMiBPerMinute, 2)} MiB/min; a collection took ${fmt(collectionMs, 0)} ms on average`,
        `webhooks: ${fmt(webhooks.events)} events ${JSON.stringify(webhooks.byEvent)}, ${fmt(webhooks.received)} ` +
          `received, ${webhooks.missing} missing, ${webhooks.repeated} more than once, ${webhooks.unknown} unknown; ` +
          `drained ${fmt(webhooks.drainSeconds, 1)} s after the load`,
      ].join('\n'),
    );
  } catch (error) {
    const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
    report.error = message;
    console.log(`\nsoak: FAILED\n\n${message}`);
    checks = CHECK_NAMES.map((name) => ({ name, passed: false, detail: `the soak did not finish: ${message}` }));
  } finally {
    inspector?.close();
    await service?.stop().catch(() => undefined);
    await receiver.stop().catch(() => undefined);
    await database?.drop().catch(() => undefined);
  }
  console.log(
    `\n${checks.map((check) => `${check.passed ? 'PASS' : 'FAIL'} ${check.name}: ${check.detail}`).join('\n')}`,
  );
  const failed = checks.some((check) => !check.passed);
  report.checks = checks;
  report.finishedAt = new Date().toISOString();
  const dir = join(ROOT, 'bench', 'results');
  await mkdir(dir, { recursive: true });
  const file = join(dir, `soak-${startedAt.toISOString().replace(/[:.]/g, '-')}.json`);
  await writeFile(file, `${JSON.stringify(report, null, 2)}\n`);
  console.log(`\nresults: ${file}`);
  if (REPORT_FILE) await writeFile(resolve(REPORT_FILE), `${JSON.stringify(jestReport(checks), null, 2)}\n`);
  if (failed) {
    console.error(`\nsoak failed; the service's log is kept in ${logDir}`);
    process.exitCode = 1;
  } else {
    await rm(logDir, { recursive: true, force: true });
  }
}

process.once('exit', killAll);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    killAll();
    process.exit(130);
  });
}
const watchdog = setTimeout(() => {
  console.error(`soak: over SOAK_TIMEOUT_MINUTES (${TIMEOUT_MINUTES}); stopping`);
  killAll();
  process.exit(2);
}, TIMEOUT_MINUTES * 60_000);
watchdog.unref();
await main();
