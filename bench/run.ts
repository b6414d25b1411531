/**
 * Benchmark (not a test, not in CI): `npm run bench`. Measures the service's hot routes against peers, each in its own
 * process, alternated A/B/A/B within one run (autocannon, 16 connections on 127.0.0.1), on SQLite and, when
 * TEST_DATABASE_URL is set, on PostgreSQL; then the large-upload figure against a raw node:http → file pipe, and (on
 * PostgreSQL) the webhook drain rate and delivery latency. Prints tables and writes the same as JSON under
 * bench/results/.
 *
 * Settings (environment): BENCH_ROUNDS (3), BENCH_SECONDS (5), BENCH_WARMUP_SECONDS (1; three times that in round 1),
 * BENCH_CONNECTIONS (16), BENCH_UPLOAD_MIB (1024; 0 skips the upload), BENCH_UPLOAD_ROUNDS (3, alternated),
 * BENCH_WEBHOOK_EVENTS (1000; 0 skips), BENCH_WEBHOOK_SAMPLES (20), BENCH_TIMEOUT_MINUTES (60), BENCH_ONLY
 * (comma-separated group names: token, product, products, jwks, metadata, upload, webhooks).
 */
import autocannon, { type Result } from 'autocannon';
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import {
  adminToken,
  call,
  cpuTimeMs,
  createDatabase,
  killAll,
  median,
  ROOT,
  sleep,
  startCommand,
  startPeer,
  startService,
  uploadPngs,
  type BenchDatabase,
  type RunningProcess,
} from './support.js';
import { measureRawUpload, measureServiceUpload, type UploadFigures } from './upload.js';
import { measureWebhooks, type WebhookFigures } from './webhooks.js';

function setting(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0) throw new Error(`${name} must be a non-negative number, not "${raw}"`);
  return value;
}

const settings = {
  rounds: Math.max(1, Math.round(setting('BENCH_ROUNDS', 3))),
  seconds: Math.max(1, setting('BENCH_SECONDS', 5)),
  warmupSeconds: setting('BENCH_WARMUP_SECONDS', 1),
  connections: Math.max(1, Math.round(setting('BENCH_CONNECTIONS', 16))),
  uploadMiB: Math.round(setting('BENCH_UPLOAD_MIB', 1024)),
  uploadRounds: Math.max(1, Math.round(setting('BENCH_UPLOAD_ROUNDS', 3))),
  webhookEvents: Math.round(setting('BENCH_WEBHOOK_EVENTS', 1000)),
  webhookSamples: Math.max(1, Math.round(setting('BENCH_WEBHOOK_SAMPLES', 20))),
  timeoutMinutes: setting('BENCH_TIMEOUT_MINUTES', 60),
  only: (process.env.BENCH_ONLY ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean),
};
/** Set when some request failed: the processes' logs are kept for a look. */
let keepLogs = false;
const wanted = (group: string) => settings.only.length === 0 || settings.only.includes(group);

/** One HTTP request autocannon repeats. */
interface Target {
  name: string;
  /** The process that answers it, whose CPU time is measured. */
  pid: number;
  url: string;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  /** Bodies sent in turn instead of `body` (e.g. one per integration). */
  bodies?: string[];
}

/** Targets measured in turn, round after round; each pair compares the first (us) to the second (a peer). */
interface Group {
  name: string;
  targets: Target[];
  pairs: Array<{ route: string; us: string; peer: string }>;
}

interface Round {
  reqPerSec: number;
  p50Ms: number;
  p99Ms: number;
  non2xx: number;
  errors: number;
  /** CPU time the answering process spent per answer, in µs (undefined without /proc). */
  cpuUsPerRequest?: number;
  /** Answers per HTTP status. */
  statuses: Record<string, number>;
}

interface TargetSummary {
  name: string;
  rounds: Round[];
  reqPerSec: number;
  p50Ms: number;
  p99Ms: number;
  non2xx: number;
  errors: number;
  cpuUsPerRequest?: number;
  /** The non-2xx statuses seen. */
  failedStatuses: string[];
}

interface PairRow {
  route: string;
  us: string;
  peer: string;
  usReqPerSec: number;
  usP50Ms: number;
  usP99Ms: number;
  peerReqPerSec: number;
  peerP50Ms: number;
  peerP99Ms: number;
  ratio: number;
  usCpuUs?: number;
  peerCpuUs?: number;
  /**
   * The peer's CPU per request over ours. Close to the ratio of rates when both processes are busy for the whole round:
   * then a gap in rates is CPU spent per request, not waiting.
   */
  cpuRatio?: number;
  /** Non-2xx answers and connection errors of either side: should be 0. */
  failures: number;
  /** Those answers' statuses. */
  failedStatuses: string[];
}

/** An autocannon request set-up that sends the bodies one after the other, round and round. */
function inTurn(bodies: string[]) {
  let next = 0;
  return <R extends object>(request: R): R & { body: string } => ({ ...request, body: bodies[next++ % bodies.length] });
}

function cannon(target: Target, seconds: number): Promise<Result> {
  return new Promise((resolve, reject) => {
    autocannon(
      {
        url: target.url,
        method: target.method ?? 'GET',
        headers: target.headers,
        body: target.body,
        ...(target.bodies ? { requests: [{ setupRequest: inTurn(target.bodies) }] } : {}),
        connections: settings.connections,
        duration: seconds,
        timeout: 10,
      },
      (error, result) => (error ? reject(error) : resolve(result)),
    );
  });
}

async function runGroup(group: Group): Promise<{ targets: TargetSummary[]; pairs: PairRow[] }> {
  const rounds = new Map<string, Round[]>(group.targets.map((target) => [target.name, []]));
  for (let round = 1; round <= settings.rounds; round++) {
    for (const target of group.targets) {
      process.stderr.write(`  ${group.name}: round ${round}/${settings.rounds}, ${target.name}\n`);
      // Round 1 warms each process up for longer: V8 is still optimising the route's code, which showed as a
      // slower first target in every group (whichever of the token targets ran first was the slower one).
      const warmup = round === 1 ? settings.warmupSeconds * 3 : settings.warmupSeconds;
      if (warmup > 0) await cannon(target, warmup);
      const cpuBefore = await cpuTimeMs(target.pid);
      const result = await cannon(target, settings.seconds);
      const cpuAfter = await cpuTimeMs(target.pid);
      const answered = result['2xx'] + result.non2xx;
      rounds.get(target.name)!.push({
        reqPerSec: result['2xx'] / result.duration,
        p50Ms: result.latency.p50,
        p99Ms: result.latency.p99,
        non2xx: result.non2xx,
        errors: result.errors,
        cpuUsPerRequest:
          cpuBefore === undefined || cpuAfter === undefined || answered === 0
            ? undefined
            : ((cpuAfter - cpuBefore) * 1000) / answered,
        statuses: Object.fromEntries(
          Object.entries(result.statusCodeStats ?? {}).map(([status, { count }]) => [status, Number(count)]),
        ),
      });
    }
  }
  const targets = group.targets.map(({ name }): TargetSummary => {
    const list = rounds.get(name)!;
    const cpu = list.map((r) => r.cpuUsPerRequest).filter((us): us is number => us !== undefined);
    return {
      name,
      rounds: list,
      reqPerSec: median(list.map((r) => r.reqPerSec)),
      p50Ms: median(list.map((r) => r.p50Ms)),
      p99Ms: median(list.map((r) => r.p99Ms)),
      non2xx: list.reduce((sum, r) => sum + r.non2xx, 0),
      errors: list.reduce((sum, r) => sum + r.errors, 0),
      cpuUsPerRequest: cpu.length === list.length ? median(cpu) : undefined,
      failedStatuses: [
        ...new Set(list.flatMap((r) => Object.keys(r.statuses).filter((status) => !status.startsWith('2')))),
      ],
    };
  });
  const byName = new Map(targets.map((target) => [target.name, target]));
  const pairs = group.pairs.map(({ route, us, peer }): PairRow => {
    const a = byName.get(us)!;
    const b = byName.get(peer)!;
    return {
      route,
      us,
      peer,
      usReqPerSec: a.reqPerSec,
      usP50Ms: a.p50Ms,
      usP99Ms: a.p99Ms,
      peerReqPerSec: b.reqPerSec,
      peerP50Ms: b.p50Ms,
      peerP99Ms: b.p99Ms,
      ratio: a.reqPerSec / b.reqPerSec,
      usCpuUs: a.cpuUsPerRequest,
      peerCpuUs: b.cpuUsPerRequest,
      cpuRatio: a.cpuUsPerRequest && b.cpuUsPerRequest ? b.cpuUsPerRequest / a.cpuUsPerRequest : undefined,
      failures: a.non2xx + a.errors + b.non2xx + b.errors,
      failedStatuses: [...new Set([...a.failedStatuses, ...b.failedStatuses])],
    };
  });
  return { targets, pairs };
}

/** The header of a compact JWT, or undefined if it is not one. */
function jwtHeader(token: unknown): { alg?: string; typ?: string } | undefined {
  if (typeof token !== 'string' || token.split('.').length !== 3) return undefined;
  try {
    return JSON.parse(Buffer.from(token.split('.')[0], 'base64url').toString('utf8')) as { alg?: string };
  } catch {
    return undefined;
  }
}

/** Sends one request of a target and throws unless it answers 2xx (and, for token targets, an ES256 JWT). */
async function check(target: Target, expectJwt = false): Promise<void> {
  const res = await fetch(target.url, {
    method: target.method ?? 'GET',
    headers: target.headers,
    body: target.body ?? target.bodies?.[0],
    signal: AbortSignal.timeout(30_000),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${target.name}: ${res.status} ${text.slice(0, 500)}`);
  if (expectJwt) {
    const header = jwtHeader((JSON.parse(text) as { access_token?: unknown }).access_token);
    if (header?.alg !== 'ES256')
      throw new Error(`${target.name}: not an ES256 JWT access token: ${text.slice(0, 500)}`);
  }
}

interface Peers {
  bare: RunningProcess;
  oidc: RunningProcess;
  oidcClient: { id: string; secret: string };
}

/**
 * Creates what the routes read: integrations, 50 products with a cover, and one product with 1 + 10 files. One
 * integration per connection: the token endpoint counts a request against its client's failure limit (10 per address)
 * until it has succeeded, so one client with more requests in flight than that from one address is told to slow down.
 */
async function seed(service: RunningProcess, token: string) {
  const { url } = service;
  await call(`${url}/api/roles`, 'POST', token, {
    name: 'bench-reader',
    permissions: ['product:read', 'article:read'],
  });
  const integrations: Array<{ access_key_id: string; secret_access_key: string }> = [];
  for (let i = 0; i < settings.connections; i++) {
    integrations.push(
      await call(`${url}/api/integrations`, 'POST', token, { label: `bench ${i}`, role: 'bench-reader' }),
    );
  }
  // Listed by id ascending: the 50 products with a cover come first, the one with 11 files after them.
  for (let i = 0; i < 50; i++) {
    const product = await call<{ id: number }>(`${url}/products`, 'POST', token, { name: `Product ${i}` });
    await uploadPngs(url, token, `/files/product/${product.id}/cover`, 1);
  }
  const product = await call<{ id: number }>(`${url}/products`, 'POST', token, { name: 'Eleven files' });
  await uploadPngs(url, token, `/files/product/${product.id}/cover`, 1);
  await uploadPngs(url, token, `/files/product/${product.id}/gallery`, 10);
  const read = await call<Record<string, unknown>>(`${url}/products/${product.id}`, 'GET', token);
  const gallery = read.gallery;
  if (!Array.isArray(gallery) || gallery.length !== 10) {
    throw new Error(`the product does not show 10 gallery files: ${JSON.stringify(read).slice(0, 500)}`);
  }
  const started = Date.now();
  await settle(service, token);
  process.stderr.write(`  background work of the uploads done after ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  return { integrations, productId: product.id };
}

/**
 * Waits until the uploads' background work is done, so that no round pays for it: every image variant made (a
 * response shows `null` for a variant still being made), then the service's CPU quiet (under 5 % for half a second).
 */
async function settle(service: RunningProcess, token: string): Promise<void> {
  const deadline = Date.now() + 120_000;
  type File = { variants?: Record<string, unknown> };
  const pending = async () => {
    const page = await call<{ items: Array<{ cover?: File; gallery?: File[] }> }>(
      `${service.url}/products?limit=100`,
      'GET',
      token,
    );
    const files = page.items.flatMap((item) => [item.cover ?? {}, ...(item.gallery ?? [])]);
    return files.some((file) => Object.values(file.variants ?? {}).includes(null));
  };
  while (await pending()) {
    if (Date.now() > deadline) throw new Error('image variants still pending after 120 s');
    await sleep(250);
  }
  for (let before = await cpuTimeMs(service.pid); Date.now() < deadline;) {
    await sleep(500);
    const after = await cpuTimeMs(service.pid);
    if (before === undefined || after === undefined || after - before < 25) return;
    before = after;
  }
}

function groupsFor(service: RunningProcess, peers: Peers, token: string, seeded: Awaited<ReturnType<typeof seed>>) {
  const bearer = { Authorization: `Bearer ${token}` };
  const bare: Target = { name: 'bare NestJS GET /bare', pid: peers.bare.pid, url: `${peers.bare.url}/bare` };
  /** One of our routes against the bare NestJS route, round after round. */
  const againstBare = (name: string, route: string, us: Target): Group => ({
    name,
    targets: [us, bare],
    pairs: [{ route, us: us.name, peer: bare.name }],
  });
  const credentials = seeded.integrations.map((integration) => ({
    grant_type: 'client_credentials',
    client_id: integration.access_key_id,
    client_secret: integration.secret_access_key,
  }));
  const tokenJson: Target = {
    name: 'us POST /api/oauth/token (JSON)',
    pid: service.pid,
    url: `${service.url}/api/oauth/token`,
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    bodies: credentials.map((body) => JSON.stringify(body)),
  };
  const tokenForm: Target = {
    ...tokenJson,
    name: 'us POST /api/oauth/token (form)',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    bodies: credentials.map((body) => new URLSearchParams(body).toString()),
  };
  const oidc: Target = {
    name: 'oidc-provider POST /token (form)',
    pid: peers.oidc.pid,
    url: `${peers.oidc.url}/token`,
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: peers.oidcClient.id,
      client_secret: peers.oidcClient.secret,
    }).toString(),
  };
  const read = (name: string, path: string, headers: Record<string, string> = bearer): Target => ({
    name: `us GET ${name}`,
    pid: service.pid,
    url: `${service.url}${path}`,
    headers,
  });
  const product = read('/products/:id (11 files)', `/products/${seeded.productId}`);
  const products = read('/products?limit=50 (each with a cover)', '/products?limit=50');
  const jwks = read('/.well-known/jwks.json', '/.well-known/jwks.json', {});
  const metadata = read('/.well-known/oauth-authorization-server', '/.well-known/oauth-authorization-server', {});
  const groups: Group[] = [
    {
      name: 'token',
      targets: [tokenJson, oidc, bare, tokenForm],
      pairs: [
        { route: 'token, client_credentials (JSON) vs oidc-provider', us: tokenJson.name, peer: oidc.name },
        { route: 'token, client_credentials (JSON) vs bare NestJS', us: tokenJson.name, peer: bare.name },
        { route: 'token, client_credentials (form) vs oidc-provider', us: tokenForm.name, peer: oidc.name },
      ],
    },
    againstBare('product', 'GET /products/:id, 11 files', product),
    againstBare('products', 'GET /products?limit=50, each with a cover', products),
    againstBare('jwks', 'GET /.well-known/jwks.json', jwks),
    againstBare('metadata', 'GET /.well-known/oauth-authorization-server', metadata),
  ];
  return groups.filter((group) => wanted(group.name));
}

async function benchDatabase(kind: 'sqlite' | 'postgres', peers: Peers, logDir: string) {
  const database: BenchDatabase = await createDatabase(kind);
  let service: RunningProcess | undefined;
  try {
    service = await startService(database, join(logDir, `service-${kind}.log`));
    const token = await adminToken(service.url);
    process.stderr.write(`${kind}: seeding\n`);
    const seeded = await seed(service, token);
    const groups = groupsFor(service, peers, token, seeded);
    for (const group of groups) {
      for (const target of group.targets) await check(target, target.name.includes('token'));
    }
    const results = [];
    for (const group of groups) results.push({ group: group.name, ...(await runGroup(group)) });
    if (results.some((result) => result.pairs.some((pair) => pair.failures > 0))) keepLogs = true;
    return results;
  } finally {
    await service?.stop();
    await database.drop();
  }
}

const fmt = (value: number, digits = 0) =>
  value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });

const cpuFigure = (us: number | undefined) => (us === undefined ? 'n/a' : fmt(us));

function pairTable(rows: PairRow[]): string {
  const lines = [
    '| route | us req/s | p50 / p99 ms | peer | peer req/s | p50 / p99 ms | us/peer | CPU µs/req us / peer | peer/us CPU | failures |',
    '|---|---:|---:|---|---:|---:|---:|---:|---:|---:|',
  ];
  for (const row of rows) {
    const peer = row.peer.replace(/ (GET|POST) .*/, '');
    lines.push(
      `| ${row.route} | ${fmt(row.usReqPerSec)} | ${fmt(row.usP50Ms, 1)} / ${fmt(row.usP99Ms, 1)} | ${peer} | ` +
        `${fmt(row.peerReqPerSec)} | ${fmt(row.peerP50Ms, 1)} / ${fmt(row.peerP99Ms, 1)} | ${fmt(row.ratio, 2)}x | ` +
        `${cpuFigure(row.usCpuUs)} / ${cpuFigure(row.peerCpuUs)} | ${row.cpuRatio === undefined ? 'n/a' : `${fmt(row.cpuRatio, 2)}x`} | ` +
        `${row.failures}${row.failedStatuses.length ? ` (${row.failedStatuses.join(', ')})` : ''} |`,
    );
  }
  return lines.join('\n');
}

function uploadTable(us: UploadFigures[], raw: UploadFigures[]): string {
  const summary = (list: UploadFigures[]) => ({
    mibPerSecond: median(list.map((u) => u.mibPerSecond)),
    peak: Math.max(...list.map((u) => u.peakRssMiB)),
    baseline: median(list.map((u) => u.baselineRssMiB)),
  });
  const a = summary(us);
  const b = summary(raw);
  return [
    `| upload of ${us[0].sizeMiB} MiB | MiB/s | peak RSS MiB (after start) |`,
    '|---|---:|---:|',
    `| us: POST /files/article/:id/attachments | ${fmt(a.mibPerSecond)} | ${fmt(a.peak)} (${fmt(a.baseline)}) |`,
    `| raw node:http → file pipe | ${fmt(b.mibPerSecond)} | ${fmt(b.peak)} (${fmt(b.baseline)}) |`,
    `| ratio us/raw | ${fmt(a.mibPerSecond / b.mibPerSecond, 2)}x | |`,
  ].join('\n');
}

function webhookTable(figures: WebhookFigures): string {
  return [
    '| webhooks (PostgreSQL, defaults) | figure |',
    '|---|---:|',
    `| backlog of ${fmt(figures.events)} events drained to one endpoint | ${fmt(figures.deliveriesPerSecond)} deliveries/s (${fmt(figures.drainSeconds, 1)} s; ${fmt(figures.sinceStartSeconds, 1)} s from spawn) |`,
    `| a new event reaching the receiver, empty backlog (${figures.latencySamplesMs.length} samples) | p50 ${fmt(figures.latencyP50Ms, 1)} ms, max ${fmt(figures.latencyMaxMs, 1)} ms |`,
  ].join('\n');
}

async function main(): Promise<void> {
  const startedAt = new Date();
  const cpu = cpus();
  const command = startCommand();
  const commandLine = [
    ...Object.entries(command.env).map(([name, value]) => `${name}=${value}`),
    'node',
    ...command.nodeArgs,
    command.script,
    ...command.args,
  ].join(' ');
  const header = [
    `# npm run bench, ${startedAt.toISOString()}`,
    `Node.js ${process.version}, ${process.platform}/${process.arch}, ${cpu.length} x ${cpu[0]?.model ?? 'unknown CPU'}, ${fmt(totalmem() / 1024 ** 3, 1)} GiB`,
    `service: ${commandLine} (as "npm start"), logs on at the default level into a file`,
    `autocannon: ${settings.connections} connections, ${settings.rounds} round(s) of ${settings.warmupSeconds} s warm-up (${settings.warmupSeconds * 3} s in round 1) + ${settings.seconds} s per target, alternated; medians over rounds`,
  ];
  console.log(header.join('\n'));
  const logDir = await mkdtemp(join(tmpdir(), 'ffs-bench-logs-'));
  const databases: Record<string, unknown> = {};
  const report: Record<string, unknown> = {
    startedAt: startedAt.toISOString(),
    node: process.version,
    platform: `${process.platform}/${process.arch}`,
    cpus: { count: cpu.length, model: cpu[0]?.model },
    startCommand: command,
    settings,
    databases,
  };
  const printed: string[] = [];
  const errors: Record<string, string> = {};
  /** Runs one part of the benchmark; a failure is reported and recorded, and the other parts still run. */
  const section = async (name: string, work: () => Promise<string>): Promise<void> => {
    try {
      const table = await work();
      printed.push(table);
      console.log(table);
    } catch (error) {
      errors[name] = error instanceof Error ? (error.stack ?? error.message) : String(error);
      const text = `\n## ${name}: FAILED\n\n${errors[name]}`;
      printed.push(text);
      console.log(text);
    }
  };
  try {
    const kinds: Array<'sqlite' | 'postgres'> = process.env.TEST_DATABASE_URL ? ['sqlite', 'postgres'] : ['sqlite'];
    const httpGroups = ['token', 'product', 'products', 'jwks', 'metadata'];
    if (httpGroups.some(wanted)) {
      const oidcClient = { id: 'bench-client', secret: randomBytes(24).toString('base64url') };
      const peers: RunningProcess[] = [];
      try {
        const bare = await startPeer('bare-nest', join(logDir, 'bare-nest.log'), '/bare');
        peers.push(bare);
        const oidc = await startPeer(
          'oidc-provider',
          join(logDir, 'oidc-provider.log'),
          '/.well-known/openid-configuration',
          { OIDC_CLIENT_ID: oidcClient.id, OIDC_CLIENT_SECRET: oidcClient.secret },
        );
        peers.push(oidc);
        for (const kind of kinds) {
          await section(kind === 'sqlite' ? 'SQLite' : 'PostgreSQL', async () => {
            const results = await benchDatabase(kind, { bare, oidc, oidcClient }, logDir);
            databases[kind] = results;
            return `\n## ${kind === 'sqlite' ? 'SQLite' : 'PostgreSQL'}\n\n${pairTable(results.flatMap((r) => r.pairs))}`;
          });
        }
      } catch (error) {
        errors.peers = error instanceof Error ? (error.stack ?? error.message) : String(error);
        console.log(`\n## peers: FAILED\n\n${errors.peers}`);
      } finally {
        for (const peer of peers) await peer.stop();
      }
    }
    if (settings.uploadMiB > 0 && wanted('upload')) {
      await section('Upload', async () => {
        const us: UploadFigures[] = [];
        const raw: UploadFigures[] = [];
        for (let round = 1; round <= settings.uploadRounds; round++) {
          process.stderr.write(`  upload: round ${round}/${settings.uploadRounds}\n`);
          // Alternated: whichever goes first also pays for the disk writing back what came before.
          if (round % 2 === 1) us.push(await measureServiceUpload(settings.uploadMiB, logDir));
          raw.push(await measureRawUpload(settings.uploadMiB, logDir));
          if (round % 2 === 0) us.push(await measureServiceUpload(settings.uploadMiB, logDir));
        }
        report.upload = { us, raw };
        return `\n## Upload (SQLite, local disk)\n\n${uploadTable(us, raw)}`;
      });
    }
    if (process.env.TEST_DATABASE_URL && settings.webhookEvents > 0 && wanted('webhooks')) {
      await section('Webhooks', async () => {
        process.stderr.write(`  webhooks: ${settings.webhookEvents} events\n`);
        const figures = await measureWebhooks(logDir, settings.webhookEvents, settings.webhookSamples);
        report.webhooks = figures;
        return `\n## Webhooks\n\n${webhookTable(figures)}`;
      });
    }
  } finally {
    killAll();
  }
  const failed = Object.keys(errors).length > 0;
  if (failed) report.errors = errors;
  if (failed || keepLogs) console.error(`\nsome ${failed ? 'parts' : 'requests'} failed; logs kept in ${logDir}`);
  report.finishedAt = new Date().toISOString();
  report.text = [...header, ...printed].join('\n');
  const dir = join(ROOT, 'bench', 'results');
  await mkdir(dir, { recursive: true });
  const file = join(dir, `bench-${startedAt.toISOString().replace(/[:.]/g, '-')}.json`);
  await writeFile(file, `${JSON.stringify(report, null, 2)}\n`);
  console.log(`\nresults: ${file}`);
  if (failed) process.exitCode = 1;
  if (!failed && !keepLogs) await rm(logDir, { recursive: true, force: true });
}

process.once('exit', killAll);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    killAll();
    process.exit(130);
  });
}
const watchdog = setTimeout(() => {
  console.error(`bench: over BENCH_TIMEOUT_MINUTES (${settings.timeoutMinutes}); stopping`);
  killAll();
  process.exit(2);
}, settings.timeoutMinutes * 60_000);
watchdog.unref();
await main();
