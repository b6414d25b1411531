/** The printed tables: Markdown, one row per compared pair. */
import { describeWarmUp, type PairRow, type TargetSummary } from './load.js';
import { median } from './support.js';
import type { UploadFigures } from './upload.js';
import type { WebhookFigures } from './webhooks.js';

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

export function webhookTable(figures: WebhookFigures): string {
  return [
    '| webhooks (PostgreSQL, defaults) | figure |',
    '|---|---:|',
    `| backlog of ${fmt(figures.events)} events drained to one endpoint | ${fmt(figures.deliveriesPerSecond)} deliveries/s (${fmt(figures.drainSeconds, 1)} s; ${fmt(figures.sinceStartSeconds, 1)} s from spawn) |`,
    `| a new event reaching the receiver, empty backlog (${figures.latencySamplesMs.length} samples) | p50 ${fmt(figures.latencyP50Ms, 1)} ms, max ${fmt(figures.latencyMaxMs, 1)} ms |`,
  ].join('\n');
}
