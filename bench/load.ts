/**
 * The load itself: autocannon against one target after another, round after round, and the medians and ratios of
 * those rounds. A non-2xx answer is a failure of the run, never throughput.
 */
import autocannon, { type Result } from 'autocannon';
import { settings } from './settings.js';
import { cpuTimeMs, median } from './support.js';

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

export interface TargetSummary {
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
        ...(target.setup ? { requests: [{ setupRequest: target.setup }] } : {}),
        ...(target.bodies ? { requests: [{ setupRequest: inTurn(target.bodies) }] } : {}),
        connections: settings.connections,
        duration: seconds,
        timeout: 10,
      },
      (error, result) => (error ? reject(error) : resolve(result)),
    );
  });
}

export async function runGroup(group: Group): Promise<{ targets: TargetSummary[]; pairs: PairRow[] }> {
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
