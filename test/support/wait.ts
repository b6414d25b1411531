/*
 * Waiting in e2e suites. A fixed pause is either too short on a slow machine (a flaky failure) or longer than
 * needed everywhere else, so a suite waits for a condition; only a check that something does NOT happen needs a
 * window of fixed length, and it says so by using `staysTrue`.
 */

const POLL_MS = 20;
/**
 * What a wait allows by default: what takes milliseconds alone takes seconds on a machine busy with other work (CI
 * runs suites side by side), and a wait that is met returns at once, so only a failure pays for a long deadline.
 */
const DEADLINE_MS = 30_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Polls `probe` until it returns a value (not undefined), then returns it; fails naming `what` at the deadline.
 * A probe with a side effect (feeding an upload) sets `intervalMs` to pace it.
 */
export async function eventually<T>(
  what: string,
  probe: () => Promise<T | undefined> | T | undefined,
  timeoutMs = DEADLINE_MS,
  intervalMs = POLL_MS,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(intervalMs);
  }
}

/**
 * Checks that `check` holds for the whole of a short window: the way to assert that something does not happen
 * (no duplicate, no early retry). There is no event to wait for, so the window is fixed; size it to a few
 * dispatcher polls, enough for the unwanted thing to have shown up if the code were wrong. Fails as soon as the
 * check does not hold.
 */
export async function staysTrue(
  what: string,
  check: () => Promise<boolean> | boolean,
  windowMs: number,
): Promise<void> {
  const end = Date.now() + windowMs;
  for (;;) {
    if (!(await check())) throw new Error(`Expected ${what} for ${windowMs} ms, but it stopped holding`);
    if (Date.now() >= end) return;
    await sleep(POLL_MS);
  }
}
