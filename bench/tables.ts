/** The printed tables: Markdown, one row per compared pair. */
import { describeWarmUp, type PairRow, type TargetSummary } from './load.js';
import { median } from './support.js';
import type { UploadFigures } from './upload.js';
import type { Signature, SigningCost, WebhookFigures } from './webhooks.js';

export const fmt = (value: number, digits = 0) =>
  value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });

const cpuFigure = (us: number | undefined) => (us === undefined ? 'n/a' : fmt(us));

export function pairTable(rows: PairRow[]): string {
  const lines = [
    '| route | us req/s | p50 / p99 ms | peer | peer req/s | p50 / p99 ms | us/peer | CPU µs/answer us / peer | peer/us CPU | failures |',
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

/** One row per target of each group: its warm-up in round 1, its rate, its CPU per answer and its failures. */
export function targetTable(groups: Array<{ group: string; targets: TargetSummary[] }>): string {
  const lines = [
    '| group | target | warm-up (round 1) | req/s | CPU µs/answer | failures |',
    '|---|---|---|---:|---:|---:|',
  ];
  for (const { group, targets } of groups) {
    for (const target of targets) {
      const failures = target.non2xx + target.errors;
      lines.push(
        `| ${group} | ${target.name} | ${describeWarmUp(target.warmup)} | ${fmt(target.reqPerSec)} | ` +
          `${cpuFigure(target.cpuUsPerRequest)} | ${failures}${target.failedStatuses.length ? ` (${target.failedStatuses.join(', ')})` : ''} |`,
      );
    }
  }
  return lines.join('\n');
}

/** The service's resident memory right after its first answer, per start. */
export function memoryLine(memory: Record<string, { now: number; peak: number }>): string {
  const starts: Record<string, string> = { kept: 'as `npm start` runs it', anew: 'with READ_CACHE_BYTES=0' };
  const figures = Object.entries(memory).map(
    ([start, { now, peak }]) => `${fmt(now)} MiB (peak ${fmt(peak)}) ${starts[start] ?? start}`,
  );
  return `Service RSS after start (after its first answer, GET /health): ${figures.join('; ')}.`;
}

export function uploadTable(us: UploadFigures[], raw: UploadFigures[]): string {
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

/** v1 and v1a side by side: medians over the rounds (the latency's max over all), and v1a over v1. */
export function webhookTable(rounds: Record<Signature, WebhookFigures[]>, signing: SigningCost): string {
  const summary = (list: WebhookFigures[]) => ({
    rate: median(list.map((f) => f.deliveriesPerSecond)),
    drain: median(list.map((f) => f.drainSeconds)),
    sinceStart: median(list.map((f) => f.sinceStartSeconds)),
    p50: median(list.map((f) => f.latencyP50Ms)),
    max: Math.max(...list.map((f) => f.latencyMaxMs)),
  });
  const v1 = summary(rounds.v1);
  const v1a = summary(rounds.v1a);
  const { events, latencySamplesMs } = rounds.v1[0];
  return [
    `| webhooks (PostgreSQL, defaults; medians of ${rounds.v1.length} alternated round(s)) | v1 (HMAC-SHA256) | v1a (Ed25519) | v1a/v1 |`,
    '|---|---:|---:|---:|',
    `| backlog of ${fmt(events)} events drained to one endpoint, deliveries/s | ${fmt(v1.rate)} | ${fmt(v1a.rate)} | ${fmt(v1a.rate / v1.rate, 2)}x |`,
    `| the same, each round | ${rounds.v1.map((f) => fmt(f.deliveriesPerSecond)).join(' / ')} | ${rounds.v1a.map((f) => fmt(f.deliveriesPerSecond)).join(' / ')} | |`,
    `| drain s (s from spawn) | ${fmt(v1.drain, 2)} (${fmt(v1.sinceStart, 1)}) | ${fmt(v1a.drain, 2)} (${fmt(v1a.sinceStart, 1)}) | |`,
    `| a new event reaching the receiver, empty backlog (${latencySamplesMs.length} samples a round), p50 ms | ${fmt(v1.p50, 1)} | ${fmt(v1a.p50, 1)} | ${fmt(v1a.p50 / v1.p50, 2)}x |`,
    `| the same, max ms | ${fmt(v1.max, 1)} | ${fmt(v1a.max, 1)} | |`,
    '',
    `CPU of one signature of a ${fmt(signing.bodyBytes)}-byte body (${fmt(signing.count)} each, the service's functions, ` +
      `in the bench's process): v1 ${fmt(signing.v1Us, 1)} µs, v1a ${fmt(signing.v1aUs, 1)} µs ` +
      `(${fmt(signing.v1aUs / signing.v1Us, 1)}x).`,
  ].join('\n');
}
