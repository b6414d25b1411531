/** The benchmark's settings, read from the environment once (see bench/run.ts for the list). */

export function setting(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0) throw new Error(`${name} must be a non-negative number, not "${raw}"`);
  return value;
}

export const settings = {
  rounds: Math.max(1, Math.round(setting('BENCH_ROUNDS', 3))),
  seconds: Math.max(1, setting('BENCH_SECONDS', 5)),
  /** The warm-up of rounds after the first. */
  warmupSeconds: setting('BENCH_WARMUP_SECONDS', 1),
  /** Round 1 warms each target up to this many answers at least, and until its rate settles… */
  warmupRequests: Math.round(setting('BENCH_WARMUP_REQUESTS', 20_000)),
  /** …for at most this long (0: round 1 warms up as the others do). */
  warmupCapSeconds: setting('BENCH_WARMUP_CAP_SECONDS', 60),
  connections: Math.max(1, Math.round(setting('BENCH_CONNECTIONS', 16))),
  uploadMiB: Math.round(setting('BENCH_UPLOAD_MIB', 1024)),
  uploadRounds: Math.max(1, Math.round(setting('BENCH_UPLOAD_ROUNDS', 3))),
  webhookEvents: Math.round(setting('BENCH_WEBHOOK_EVENTS', 1000)),
  webhookSamples: Math.max(1, Math.round(setting('BENCH_WEBHOOK_SAMPLES', 20))),
  webhookRounds: Math.max(1, Math.round(setting('BENCH_WEBHOOK_ROUNDS', 3))),
  // Round 1's warm-up of every target, up to a minute each, on two databases.
  timeoutMinutes: setting('BENCH_TIMEOUT_MINUTES', 120),
  only: (process.env.BENCH_ONLY ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean),
};

/** Whether BENCH_ONLY lets a group run (all run when it is empty). */
export const wanted = (group: string) => settings.only.length === 0 || settings.only.includes(group);

/** The groups measured over HTTP against the peers; the first five on the service as `npm start` runs it. */
export const HTTP_GROUPS = [
  'token',
  'product',
  'products',
  'jwks',
  'metadata',
  'mixed',
  'product-anew',
  'products-anew',
];

/** The groups measured on a service started with READ_CACHE_BYTES=0: every answer made anew. */
export const ANEW_GROUPS = ['product-anew', 'products-anew'];
