/**
 * Profile (not a test, not in CI): `PROFILE_TARGET=<target> npm run bench:profile`. Where one route's CPU time goes,
 * by package. Starts the built service as `npm start` does under `node --cpu-prof` (SQLite, a fresh database, its
 * own SECRETS_KEY; with READ_CACHE_BYTES=0 for the reads made anew), seeds it as `npm run bench` does, loads the one
 * target with autocannon for a warm-up and then the measured seconds, and stops it with SIGTERM: Node.js writes the
 * profile as the process exits. Only the samples taken during the measured seconds are summed (the profile's clock
 * and this process's `process.hrtime` are both the system's monotonic clock), by group: `node_modules/<package>`,
 * `node (internal)`, `src/<folder>/<subfolder>` of the service's own code, frames without a script by the group that
 * called them, and V8's `(garbage collector)` and `(program)`; `(idle)` is left out of the busy time.
 *
 * The profile samples the main thread only; the process's CPU time from /proc (every thread: libuv's pool, which
 * signs tokens, and V8's helpers) is printed beside it.
 *
 * Targets (PROFILE_TARGET): token (POST /api/oauth/token, client_credentials, JSON), jwks, product (GET
 * /products/:id with 11 files, kept), products (GET /products?limit=50, each with a cover, kept), product-anew,
 * products-anew (the same, made anew). Settings (environment): PROFILE_SECONDS (15), PROFILE_WARMUP_SECONDS (10),
 * PROFILE_TOP (20 rows), PROFILE_INTERVAL_US (the sampling interval; V8's default, 1000), PROFILE_KEEP (1: keep the
 * .cpuprofile and the service's log, e.g. to open the profile in Chrome's DevTools), BENCH_CONNECTIONS (16).
 * Prints the tables and writes them as JSON to bench/results/profile-<target>-<time>.json.
 */
import autocannon, { type Result } from 'autocannon';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { summarize, type CpuProfile, type GroupTime } from './cpu-profile.js';
import {
  adminToken,
  call,
  cpuTimeMs,
  createDatabase,
  killAll,
  ROOT,
  startCommand,
  startService,
  type BenchDatabase,
  type RunningProcess,
} from './support.js';

const TARGETS = ['token', 'jwks', 'product', 'products', 'product-anew', 'products-anew'] as const;
type TargetName = (typeof TARGETS)[number];

function setting(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number, not "${raw}"`);
  return value;
}

const targetName = process.env.PROFILE_TARGET as TargetName;
if (!TARGETS.includes(targetName)) {
  console.error(`PROFILE_TARGET must be one of ${TARGETS.join(', ')} (not "${process.env.PROFILE_TARGET ?? ''}")`);
  process.exit(2);
}
const seconds = setting('PROFILE_SECONDS', 15);
const warmupSeconds = setting('PROFILE_WARMUP_SECONDS', 10);
const top = Math.round(setting('PROFILE_TOP', 20));
const intervalUs = process.env.PROFILE_INTERVAL_US ? Math.round(setting('PROFILE_INTERVAL_US', 1000)) : undefined;
const keep = process.env.PROFILE_KEEP === '1';
const anew = targetName.endsWith('-anew');

// bench/seed.ts creates what BENCH_ONLY's groups read (integrations for `token`, the mixed load's 1,000 products
// for `mixed`), reading it once as its module loads: set to the one group here, then the module is loaded.
process.env.BENCH_ONLY = targetName;
const { seed } = await import('./seed.js');
const { settings } = await import('./settings.js');

interface Target {
  label: string;
  path: string;
  method?: string;
  headers?: Record<string, string>;
  /** Sent one after the other, round and round. */
  bodies?: string[];
}

function targetFor(name: TargetName, token: string, seeded: Awaited<ReturnType<typeof seed>>): Target {
  const bearer = { Authorization: `Bearer ${token}` };
  const made = anew ? ', made anew' : ', kept';
  switch (name) {
    case 'token':
      return {
        label: 'POST /api/oauth/token, client_credentials (JSON)',
        path: '/api/oauth/token',
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        bodies: seeded.integrations.map((integration) =>
          JSON.stringify({
            grant_type: 'client_credentials',
            client_id: integration.access_key_id,
            client_secret: integration.secret_access_key,
          }),
        ),
      };
    case 'jwks':
      return { label: 'GET /.well-known/jwks.json', path: '/.well-known/jwks.json' };
    case 'product':
    case 'product-anew':
      return { label: `GET /products/:id, 11 files${made}`, path: `/products/${seeded.productId}`, headers: bearer };
    case 'products':
    case 'products-anew':
      return { label: `GET /products?limit=50, each with a cover${made}`, path: '/products?limit=50', headers: bearer };
  }
}

/** Loads the target for `duration` seconds. */
function cannon(url: string, target: Target, duration: number): Promise<Result> {
  const bodies = target.bodies;
  let next = 0;
  return new Promise((resolve, reject) =>
    autocannon(
      {
        url: `${url}${target.path}`,
        method: target.method ?? 'GET',
        headers: target.headers,
        ...(bodies
          ? {
              requests: [
                { setupRequest: <R extends object>(r: R) => ({ ...r, body: bodies[next++ % bodies.length] }) },
              ],
            }
          : {}),
        connections: settings.connections,
        duration,
        timeout: 10,
      },
      (error, result) => (error ? reject(error) : resolve(result)),
    ),
  );
}

/** Non-2xx answers and connection errors of a run, for people; undefined when there were none. */
function failures(result: Result): string | undefined {
  if (result.non2xx === 0 && result.errors === 0) return undefined;
  const statuses = Object.entries(result.statusCodeStats ?? {})
    .filter(([status]) => !status.startsWith('2'))
    .map(([status, { count }]) => `${status}: ${count}`);
  return `${result.non2xx} non-2xx answers (${statuses.join(', ') || 'none'}), ${result.errors} errors`;
}

const fmt = (value: number, digits = 0) =>
  value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });

function table(rows: GroupTime[], first: string): string {
  const lines = [`| ${first} | ms | % of busy |`, '|---|---:|---:|'];
  for (const row of rows) lines.push(`| ${row.group} | ${fmt(row.ms)} | ${fmt(row.percent, 1)} |`);
  return lines.join('\n');
}

/** The main thread's profile of process `pid` in `dir` (Node.js names it CPU.<date>.<time>.<pid>.<thread>.<n>). */
async function readProfile(dir: string, pid: number): Promise<CpuProfile> {
  const files = (await readdir(dir)).filter((file) => file.endsWith('.cpuprofile'));
  const main = files.find((file) => file.includes(`.${pid}.0.`)) ?? (files.length === 1 ? files[0] : undefined);
  if (!main) throw new Error(`no CPU profile of process ${pid} in ${dir} (found: ${files.join(', ') || 'none'})`);
  return JSON.parse(await readFile(join(dir, main), 'utf8')) as CpuProfile;
}

async function main(): Promise<number> {
  const startedAt = new Date();
  const dir = await mkdtemp(join(tmpdir(), 'ffs-profile-'));
  const logFile = join(dir, 'service.log');
  let database: BenchDatabase | undefined;
  let service: RunningProcess | undefined;
  let failed = false;
  try {
    database = await createDatabase('sqlite');
    const env: Record<string, string> = anew ? { READ_CACHE_BYTES: '0' } : {};
    const profileArgs = ['--cpu-prof', `--cpu-prof-dir=${dir}`];
    if (intervalUs) profileArgs.push(`--cpu-prof-interval=${intervalUs}`);
    service = await startService(database, logFile, env, profileArgs);
    const pid = service.pid;
    const token = await adminToken(service.url);
    process.stderr.write(`seeding\n`);
    const target = targetFor(targetName, token, await seed(service, token));

    const probe = await fetch(`${service.url}${target.path}`, {
      method: target.method ?? 'GET',
      headers: target.headers,
      body: target.bodies?.[0],
      signal: AbortSignal.timeout(30_000),
    });
    if (!probe.ok) throw new Error(`${target.label}: ${probe.status} ${(await probe.text()).slice(0, 500)}`);
    await probe.arrayBuffer();

    process.stderr.write(`warm-up: ${warmupSeconds} s\n`);
    const warmup = await cannon(service.url, target, warmupSeconds);
    process.stderr.write(`profiled: ${seconds} s\n`);
    const cpuBefore = await cpuTimeMs(pid);
    const from = process.hrtime.bigint();
    const result = await cannon(service.url, target, seconds);
    const to = process.hrtime.bigint();
    const cpuAfter = await cpuTimeMs(pid);
    const health = await call<{ readCache?: { hits: number; misses: number } }>(
      `${service.url}/health`,
      'GET',
      undefined,
    );
    await service.stop(60_000);

    const profile = await readProfile(dir, pid);
    const fromUs = Number(from / 1000n);
    const toUs = Number(to / 1000n);
    const inProfile = fromUs >= profile.startTime && toUs <= profile.endTime;
    // The window lies inside the profile unless the clocks differ after all: then the whole profile is summed.
    const summary = inProfile ? summarize(profile, ROOT, fromUs, toUs) : summarize(profile, ROOT);
    const answers = result['2xx'] + result.non2xx;
    const windowMs = (summary.toUs - summary.fromUs) / 1000;
    const processCpuMs = cpuBefore === undefined || cpuAfter === undefined ? undefined : cpuAfter - cpuBefore;
    const failedWarmup = failures(warmup);
    const failedRun = failures(result);
    failed = Boolean(failedWarmup || failedRun);
    if (anew && health.readCache && health.readCache.hits > 0) {
      failed = true;
      console.error(`answers were kept with READ_CACHE_BYTES=0: ${JSON.stringify(health.readCache)}`);
    }

    const command = startCommand();
    const cpu = cpus();
    const text = [
      `# npm run bench:profile, ${targetName}: ${target.label}`,
      '',
      `Node.js ${process.version}, ${process.platform}/${process.arch}, ${cpu.length} x ${cpu[0]?.model ?? 'unknown CPU'}; ` +
        `service: ${anew ? 'READ_CACHE_BYTES=0 ' : ''}node ${[...command.nodeArgs, '--cpu-prof', command.script].join(' ')}, SQLite`,
      `autocannon: ${settings.connections} connections; warm-up ${fmt(warmupSeconds)} s ` +
        `(${fmt(warmup['2xx'] + warmup.non2xx)} answers), then ${fmt(seconds)} s profiled`,
      `answers: ${fmt(answers)} (${fmt(result['2xx'] / result.duration)} req/s)` +
        (failed ? `; FAILED: ${[failedWarmup, failedRun].filter(Boolean).join('; ')}` : ', 0 failures'),
      inProfile
        ? `window: ${fmt(windowMs)} ms of the profile's ${fmt((profile.endTime - profile.startTime) / 1000)} ms, ${fmt(summary.samples)} samples`
        : `window: NOT FOUND on the profile's clock; the whole profile (start-up and seeding included) is summed`,
      `main thread busy: ${fmt(summary.busyMs)} ms (${fmt((100 * summary.busyMs) / windowMs, 1)} % of the window; idle ${fmt(summary.idleMs)} ms)` +
        (processCpuMs === undefined ? '' : `; process CPU, all threads (/proc): ${fmt(processCpuMs)} ms`),
      `CPU per answer: ${answers > 0 ? fmt((summary.busyMs * 1000) / answers) : 'n/a'} µs on the main thread` +
        (processCpuMs === undefined || answers === 0 ? '' : `, ${fmt((processCpuMs * 1000) / answers)} µs all threads`),
      '',
      `Self time by group, top ${top}:`,
      '',
      table(summary.groups.slice(0, top), 'group'),
      '',
      'Frames without a script (C++ bindings, V8 built-ins), top 10, with the group that called them:',
      '',
      table(
        summary.native.slice(0, 10).map((row) => ({ ...row, group: `${row.group} ← ${row.caller}` })),
        'function ← caller',
      ),
    ].join('\n');
    console.log(text);

    const results = join(ROOT, 'bench', 'results');
    await mkdir(results, { recursive: true });
    const file = join(results, `profile-${targetName}-${startedAt.toISOString().replace(/[:.]/g, '-')}.json`);
    const report = {
      startedAt: startedAt.toISOString(),
      node: process.version,
      target: { name: targetName, label: target.label, readCacheBytes: anew ? 0 : undefined },
      settings: { seconds, warmupSeconds, connections: settings.connections, intervalUs: intervalUs ?? 1000 },
      answers,
      reqPerSec: result['2xx'] / result.duration,
      failures: { warmup: failedWarmup, run: failedRun },
      readCache: health.readCache,
      windowFound: inProfile,
      windowMs,
      busyMs: summary.busyMs,
      idleMs: summary.idleMs,
      processCpuMs,
      cpuUsPerAnswer: answers > 0 ? (summary.busyMs * 1000) / answers : undefined,
      processCpuUsPerAnswer: processCpuMs === undefined || answers === 0 ? undefined : (processCpuMs * 1000) / answers,
      groups: summary.groups,
      native: summary.native.slice(0, 50),
      text,
    };
    await writeFile(file, `${JSON.stringify(report, null, 2)}\n`);
    console.log(`\nresults: ${file}`);
  } catch (error) {
    failed = true;
    console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
  } finally {
    await service?.stop().catch(() => undefined);
    killAll();
    await database?.drop().catch(() => undefined);
    if (keep || failed) console.error(`profile and service log kept in ${dir}`);
    else await rm(dir, { recursive: true, force: true });
  }
  return failed ? 1 : 0;
}

process.once('exit', killAll);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    killAll();
    process.exit(130);
  });
}
const watchdog = setTimeout(
  () => {
    console.error('bench:profile: over 10 minutes; stopping');
    killAll();
    process.exit(2);
  },
  10 * 60_000 + (seconds + warmupSeconds) * 1000,
);
watchdog.unref();
process.exitCode = await main();
