/**
 * Benchmark (not a test, not in CI): `npm run bench`. Measures the service's hot routes against peers, each in its own
 * process, alternated A/B/A/B within one run (autocannon, 16 connections on 127.0.0.1), on SQLite and, when
 * TEST_DATABASE_URL is set, on PostgreSQL; then the large-upload figure against a raw node:http → file pipe, and (on
 * PostgreSQL) the webhook drain rate and delivery latency, signing `v1` (HMAC) and `v1a` (Ed25519) alternated, with
 * the CPU of one signature of each. Prints tables (each ratio with the CPU per answer of both sides; each target's
 * warm-up; the service's RSS after start) and writes the same as JSON under bench/results/.
 *
 * The peers: a bare NestJS route (bench/peers/bare-nest.ts), the yardstick of the token endpoint, the constant
 * documents and the kept reads; node-oidc-provider (bench/peers/oidc-provider.ts) for the token; and the read floor
 * (bench/peers/read-floor.ts) for the reads made anew: node:http, one prepared query, objects by hand, the same bytes
 * as the service's answer (compared before the load).
 *
 * The catalog reads are measured twice: kept (the service as `npm start` runs it, the same answer sent again while the
 * data stays the same) and made anew (a second start on the same database with READ_CACHE_BYTES=0, as any read after
 * a write). The mixed load reads and renames 1,000 products of its own, 9 reads to 1 write, on the first start.
 *
 * Warm-up: in round 1 each target is loaded until it has answered BENCH_WARMUP_REQUESTS and its rate has settled
 * (three 1-second windows within 5 %), for at most BENCH_WARMUP_CAP_SECONDS; later rounds warm up for
 * BENCH_WARMUP_SECONDS. A non-2xx answer or a connection error, warm-ups included, is a failure: printed, and the
 * run exits non-zero.
 *
 * Settings (environment): BENCH_ROUNDS (3), BENCH_SECONDS (5), BENCH_WARMUP_REQUESTS (20000),
 * BENCH_WARMUP_CAP_SECONDS (60; 0: round 1 warms up as the others), BENCH_WARMUP_SECONDS (1), BENCH_CONNECTIONS
 * (16), BENCH_UPLOAD_MIB (1024; 0 skips the upload), BENCH_UPLOAD_ROUNDS (3, alternated), BENCH_WEBHOOK_EVENTS (1000;
 * 0 skips), BENCH_WEBHOOK_SAMPLES (20), BENCH_WEBHOOK_ROUNDS (3, each v1 then v1a), BENCH_TIMEOUT_MINUTES (120),
 * BENCH_ONLY (comma-separated group names: token (vs oidc-provider and bare NestJS), product, products, jwks,
 * metadata, mixed (each vs bare NestJS), product-anew, products-anew (each vs the read floor), upload, webhooks).
 */
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { benchDatabase } from './database.js';
import { HTTP_GROUPS, settings, wanted } from './settings.js';
import { killAll, ROOT, startCommand, startPeer, type RunningProcess } from './support.js';
import { fmt, memoryLine, pairTable, targetTable, uploadTable, webhookTable } from './tables.js';
import { measureRawUpload, measureServiceUpload, type UploadFigures } from './upload.js';
import { measureSigningCost, measureWebhooks, type Signature, type WebhookFigures } from './webhooks.js';

/** Round 1's warm-up, for people. */
function warmupRule(): string {
  if (settings.warmupCapSeconds <= 0) return `${settings.warmupSeconds} s`;
  return (
    `until ${settings.warmupRequests.toLocaleString('en-US')} answers and a settled rate (three 1-second windows ` +
    `within 5 %), at most ${settings.warmupCapSeconds} s`
  );
}

/** Set when some request failed: the processes' logs are kept for a look, and the run fails. */
let keepLogs = false;

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
    `autocannon: ${settings.connections} connections, ${settings.rounds} round(s) of a warm-up and ${settings.seconds} s per target, alternated; medians over rounds`,
    `warm-up: round 1 ${warmupRule()}; later rounds ${settings.warmupSeconds} s`,
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
    if (HTTP_GROUPS.some(wanted)) {
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
            const { results, readCache, memory } = await benchDatabase(kind, { bare, oidc, oidcClient }, logDir);
            databases[kind] = { groups: results, readCache, memory };
            if (results.some((result) => result.pairs.some((pair) => pair.failures > 0))) keepLogs = true;
            return [
              `\n## ${kind === 'sqlite' ? 'SQLite' : 'PostgreSQL'}`,
              pairTable(results.flatMap((r) => r.pairs)),
              targetTable(results),
              memoryLine(memory),
            ].join('\n\n');
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
        const rounds: Record<Signature, WebhookFigures[]> = { v1: [], v1a: [] };
        for (let round = 1; round <= settings.webhookRounds; round++) {
          for (const signature of ['v1', 'v1a'] as const) {
            process.stderr.write(
              `  webhooks: round ${round}/${settings.webhookRounds}, ${signature}, ${settings.webhookEvents} events\n`,
            );
            rounds[signature].push(
              await measureWebhooks(logDir, signature, settings.webhookEvents, settings.webhookSamples),
            );
          }
        }
        const signing = measureSigningCost(10_000);
        report.webhooks = { ...rounds, signing };
        return `\n## Webhooks\n\n${webhookTable(rounds, signing)}`;
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
  if (failed || keepLogs) process.exitCode = 1;
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
