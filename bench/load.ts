/**
 * The load itself: autocannon against one target after another, round after round, and the medians and ratios of
 * those rounds. A non-2xx answer is a failure of the run, never throughput: counted (warm-up included), printed, and
 * the run exits non-zero.
 *
 * Warm-up: a process gets cheaper per answer over its first tens of thousands of requests (V8 optimising the route's
 * code, caches and pools filling), so in round 1 each target is loaded until it has answered BENCH_WARMUP_REQUESTS
 * and its rate has settled (three successive 1-second windows within 5 % of each other), whichever comes later, for
 * at most BENCH_WARMUP_CAP_SECONDS; later rounds warm up for BENCH_WARMUP_SECONDS.
 */
import autocannon, { type Result } from 'autocannon';
import { settings } from './settings.js';
import { cpuTimeMs, median } from './support.js';

/** How many successive 1-second windows must agree for a rate to have settled, and how closely. */
const SETTLED_WINDOWS = 3;
const SETTLED_SPREAD = 0.05;

/** One HTTP request autocannon repeats. */
export interface Target {
  name: string;
  /** The process that answers it, whose CPU time is measured. */
  pid: number;
  url: string;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  /** Bodies sent in turn instead of `body` (e.g. one per integration). */
  bodies?: string[];
  /** Changes each request before it is sent (method, path, body), instead of `bodies`. */
  setup?: <R extends object>(request: R) => R;
}

/** Targets measured in turn, round after round; each pair compares the first (us) to the second (a peer). */
export interface Group {
  name: string;
  targets: Target[];
  pairs: Array<{ route: string; us: string; peer: string }>;
  /** Two targets that must answer the same bytes (ours and its floor), compared before the load. */
  sameAnswer?: [Target, Target];
}

/** The warm-up before one measured run. */
export interface WarmUp {
  answers: number;
  seconds: number;
  /** Whether the rate settled (round 1); undefined for a warm-up of a fixed length. */
  settled?: boolean;
  non2xx: number;
  errors: number;
  statuses: Record<string, number>;
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
  warmup?: WarmUp;
}

export interface TargetSummary {
  name: string;
  rounds: Round[];
  reqPerSec: number;
  p50Ms: number;
  p99Ms: number;
  non2xx: number;
  errors: number;
  cpuUsPerRequest?: number;
  /** The non-2xx statuses seen, warm-ups included. */
  failedStatuses: string[];
  /** Answers of round 1's warm-up, its length and whether the rate settled. */
  warmup?: WarmUp;
}

export interface PairRow {
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
  /** Non-2xx answers and connection errors of either side, warm-ups included: should be 0. */
  failures: number;
  /** Those answers' statuses. */
  failedStatuses: string[];
}

/** An autocannon request set-up that sends the bodies one after the other, round and round. */
function inTurn(bodies: string[]) {
  let next = 0;
  return <R extends object>(request: R): R & { body: string } => ({ ...request, body: bodies[next++ % bodies.length] });
}

/** Loads the target for `seconds`, or until `enough` (asked every second with that second's answers) says so. */
function cannon(target: Target, seconds: number, enough?: (answers: number) => boolean): Promise<Result> {
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: target.url,
        method: target.method ?? 'GET',
        headers: target.headers,
        body: target.body,
        ...(target.setup ? { requests: [{ setupRequest: target.setup }] } : {}),
        ...(target.bodies ? { requests: [{ setupRequest: inTurn(target.bodies) }] } : {}),
        connections: settings.connections,
        duration: seconds,
        timeout: 10,
      },
      (error, result) => (error ? reject(error) : resolve(result)),
    );
    if (enough) instance.on('tick', ({ counter }) => enough(counter) && instance.stop());
  });
}

/** Answers per HTTP status of a run. */
const statusesOf = (result: Result): Record<string, number> =>
  Object.fromEntries(
    Object.entries(result.statusCodeStats ?? {}).map(([status, { count }]) => [status, Number(count)]),
  );

const failedStatuses = (statuses: Record<string, number>) =>
  Object.keys(statuses).filter((status) => !status.startsWith('2'));

/**
 * Warms the target up: in round 1 until it has answered BENCH_WARMUP_REQUESTS and its rate has settled, at most for
 * BENCH_WARMUP_CAP_SECONDS; otherwise for BENCH_WARMUP_SECONDS.
 */
async function warmUp(target: Target, round: number): Promise<WarmUp | undefined> {
  const settling = round === 1 && settings.warmupCapSeconds > 0;
  if (!settling && settings.warmupSeconds <= 0) return undefined;
  let settled = false;
  let result: Result;
  if (settling) {
    const windows: number[] = [];
    let answers = 0;
    result = await cannon(target, settings.warmupCapSeconds, (counter) => {
      // autocannon ticks once more as it stops.
      if (settled) return true;
      windows.push(counter);
      answers += counter;
      const last = windows.slice(-SETTLED_WINDOWS);
      settled =
        answers >= settings.warmupRequests &&
        last.length === SETTLED_WINDOWS &&
        Math.min(...last) > 0 &&
        Math.max(...last) <= Math.min(...last) * (1 + SETTLED_SPREAD);
      return settled;
    });
  } else {
    result = await cannon(target, settings.warmupSeconds);
  }
  return {
    answers: result['2xx'] + result.non2xx,
    seconds: result.duration,
    settled: settling ? settled : undefined,
    non2xx: result.non2xx,
    errors: result.errors,
    statuses: statusesOf(result),
  };
}

const count = (n: number) => n.toLocaleString('en-US');

/** What a warm-up was, for people. */
export function describeWarmUp(warmup: WarmUp | undefined): string {
  if (!warmup) return 'none';
  const settled = warmup.settled === undefined ? '' : warmup.settled ? ', settled' : ', capped before settling';
  return `${count(warmup.answers)} answers in ${warmup.seconds.toFixed(1)} s${settled}`;
}

/** A line for people about a run's non-2xx answers and errors, or undefined when there were none. */
function failuresOf(run: { non2xx: number; errors: number; statuses: Record<string, number> }): string | undefined {
  if (run.non2xx === 0 && run.errors === 0) return undefined;
  const statuses = failedStatuses(run.statuses).map((status) => `${status}: ${count(run.statuses[status])}`);
  return `${count(run.non2xx)} non-2xx answers${statuses.length ? ` (${statuses.join(', ')})` : ''}, ${count(run.errors)} errors`;
}

export async function runGroup(group: Group): Promise<{ targets: TargetSummary[]; pairs: PairRow[] }> {
  const rounds = new Map<string, Round[]>(group.targets.map((target) => [target.name, []]));
  for (let round = 1; round <= settings.rounds; round++) {
    for (const target of group.targets) {
      process.stderr.write(`  ${group.name}: round ${round}/${settings.rounds}, ${target.name}\n`);
      const warmup = await warmUp(target, round);
      if (warmup) process.stderr.write(`    warm-up: ${describeWarmUp(warmup)}\n`);
      const cpuBefore = await cpuTimeMs(target.pid);
      const result = await cannon(target, settings.seconds);
      const cpuAfter = await cpuTimeMs(target.pid);
      const answered = result['2xx'] + result.non2xx;
      const measured: Round = {
        reqPerSec: result['2xx'] / result.duration,
        p50Ms: result.latency.p50,
        p99Ms: result.latency.p99,
        non2xx: result.non2xx,
        errors: result.errors,
        cpuUsPerRequest:
          cpuBefore === undefined || cpuAfter === undefined || answered === 0
            ? undefined
            : ((cpuAfter - cpuBefore) * 1000) / answered,
        statuses: statusesOf(result),
        warmup,
      };
      rounds.get(target.name)!.push(measured);
      const cpu = measured.cpuUsPerRequest === undefined ? 'n/a' : measured.cpuUsPerRequest.toFixed(0);
      process.stderr.write(`    ${count(Math.round(measured.reqPerSec))} req/s, ${cpu} µs CPU per answer\n`);
      const failures = { 'in the warm-up': warmup && failuresOf(warmup), 'in the measured run': failuresOf(measured) };
      for (const [when, failed] of Object.entries(failures)) {
        if (failed) process.stderr.write(`    FAILED ${when}: ${failed}\n`);
      }
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
      non2xx: list.reduce((sum, r) => sum + r.non2xx + (r.warmup?.non2xx ?? 0), 0),
      errors: list.reduce((sum, r) => sum + r.errors + (r.warmup?.errors ?? 0), 0),
      cpuUsPerRequest: cpu.length === list.length ? median(cpu) : undefined,
      failedStatuses: [
        ...new Set(list.flatMap((r) => [...failedStatuses(r.statuses), ...failedStatuses(r.warmup?.statuses ?? {})])),
      ],
      warmup: list[0]?.warmup,
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
