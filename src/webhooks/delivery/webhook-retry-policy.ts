/** What came of one attempt, as far as scheduling cares. */
export interface AttemptOutcome {
  statusCode?: number;
  timedOut?: boolean;
  /** Seconds from a Retry-After header, if any. */
  retryAfterSeconds?: number;
}

const SLOW_DOWN_FLOOR_MS = 60_000;

/**
 * When to try again after failed attempt number `attempt` (1 = the first, immediate one): the schedule's delay with
 * ±20 % jitter, at least 60 s after a 429 or a timeout, and Retry-After honoured up to twice the scheduled delay.
 * Undefined when the schedule is exhausted.
 */
export function nextDelayMs(
  schedule: readonly number[],
  attempt: number,
  outcome: AttemptOutcome,
  random: () => number,
): number | undefined {
  const scheduled = schedule[attempt - 1];
  if (scheduled === undefined) return undefined;
  let delay = scheduled * (0.8 + 0.4 * random());
  if (outcome.statusCode === 429 || outcome.timedOut) delay = Math.max(delay, SLOW_DOWN_FLOOR_MS);
  if (outcome.retryAfterSeconds !== undefined && outcome.retryAfterSeconds >= 0) {
    delay = Math.max(delay, Math.min(outcome.retryAfterSeconds * 1000, 2 * scheduled));
  }
  return Math.round(delay);
}

/** Retry-After as seconds: delta-seconds or an HTTP date. */
export function parseRetryAfter(value: string | undefined, nowMs: number): number | undefined {
  if (!value) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - nowMs) / 1000));
}
