import { Inject, Injectable } from '@nestjs/common';
import {
  RateLimiterMemory,
  RateLimiterRedis,
  RateLimiterRes,
  type IRateLimiterOptions,
  type RateLimiterAbstract,
} from 'rate-limiter-flexible';
import { RedisConnection } from '../../redis/index.js';
import { ADMIN_CLIENT_ID } from '../credentials/administration-client.js';
import { tokenConfig, type TokenConfig } from '../token.config.js';
import { InFlightAttempts, type Watch } from './in-flight-attempts.js';
import { RecentFailures } from './recent-failures.js';
import { OAuthError, TooManyAttemptsError } from '../credentials/oauth-error.js';
import type { ClientCredentials } from '../credentials/token-request.js';

/** Who a token request claims to be, as far as counting failures goes. */
export type AttemptAccount = { kind: 'user' | 'client'; name: string } | undefined;

/**
 * The account of a request that names no user: its client_id, from the body or Basic; never the shared
 * administration client, which would let anyone lock every administrator out (its requests count per address only).
 */
export function clientAccount(client: ClientCredentials): AttemptAccount {
  return client.clientId === ADMIN_CLIENT_ID ? undefined : { kind: 'client', name: client.clientId };
}

/** One counted attempt: a success forgives it, a failure leaves it counted. */
export interface Attempt {
  succeeded(): Promise<void>;
  /** Not the client's fault (e.g. the service was busy): give the point back everywhere. */
  refund(): Promise<void>;
}

/** An attempt of {@link TokenFailureLimiter.limited}: its caller also tells a failure, which may have to be counted. */
interface SettledAttempt extends Attempt {
  failed(): Promise<void>;
}

/** How long an attempt refused only for attempts in flight waits for them, at most, before it is refused. */
const MAX_WAIT_MS = 10_000;

/** Retry-After of an attempt refused after waiting that long for attempts in flight. */
const IN_FLIGHT_RETRY_MS = 1_000;

type Key = [limiter: RateLimiterAbstract, key: string, name: string];

/**
 * Counts token requests that fail, on three keys: the account (username or client_id) from one IP address (strict:
 * TOKEN_FAILURES_PER_MINUTE), the account from anywhere (TOKEN_FAILURES_PER_ACCOUNT) and the IP address whatever
 * the account (TOKEN_FAILURES_PER_IP). One account's successes never reset another's failures.
 *
 * Concurrent attempts cannot slip past the limit. Where failures were counted lately, a point is taken before any
 * credential is checked, and a success gives back only its own points and clears only its own strict key. Where none
 * was (the common case: a client with its right secret), the counters in this instance's memory hold nothing for the
 * attempt's keys, so it is checked without touching them, as one of at most a limit's worth in flight on each key;
 * only a failure is counted, after the fact. A success then costs no counter at all.
 *
 * An attempt in flight may yet succeed. So that requests in flight do not make a valid client look like a guesser, a
 * request refused while this instance has requests in flight on the refusing keys waits for them to settle and tries
 * again; it is refused once no request is in flight there.
 *
 * With REDIS_URL the counters live in Redis and hold across instances, so every attempt takes its point there first
 * (another instance's failures are not known here); while Redis is unreachable each instance counts in its own memory
 * (rate-limiter-flexible's insurance limiter), so requests are still served and limited.
 */
@Injectable()
export class TokenFailureLimiter {
  private readonly perAccountAndIp: RateLimiterAbstract;
  private readonly perAccount: RateLimiterAbstract;
  private readonly perIp: RateLimiterAbstract;
  private readonly inFlight = new InFlightAttempts();
  /** Only while the counters are this instance's own: the keys they may hold points on. */
  private readonly recent?: RecentFailures;

  constructor(@Inject(tokenConfig.KEY) config: TokenConfig, redis: RedisConnection) {
    const limiter = (name: string, points: number): RateLimiterAbstract => {
      const options: IRateLimiterOptions = { points, duration: config.failureWindowSeconds };
      if (!redis.client) return new RateLimiterMemory(options);
      return new RateLimiterRedis({
        ...options,
        storeClient: redis.client,
        keyPrefix: redis.key(`token-failures:${name}`),
        rejectIfRedisNotReady: true,
        insuranceLimiter: new RateLimiterMemory(options),
      });
    };
    this.perAccountAndIp = limiter('account-ip', config.failuresPerMinute);
    this.perAccount = limiter('account', config.failuresPerAccount);
    this.perIp = limiter('ip', config.failuresPerIp);
    if (!redis.client) this.recent = new RecentFailures(config.failureWindowSeconds * 1000);
  }

  /**
   * Runs one request of the token or revocation endpoint within the limits. A request that cannot be parsed names no
   * account it could be counted against reliably: only its address pays. A parsed one counts against its account; a
   * success is forgiven, and only a request the service declined to check (busy, 503) is not counted: any other
   * error, a 500 included, may have come after a check, and must not let a client guess for free.
   */
  async limited<R, T>(
    ip: string,
    parse: () => R,
    accountOf: (request: R) => AttemptAccount,
    handle: (request: R) => Promise<T>,
  ): Promise<T> {
    let request: R;
    try {
      request = parse();
    } catch (error) {
      await this.begin(undefined, ip);
      throw error;
    }
    const keys = this.keysOf(accountOf(request), ip);
    const attempt = this.unpaidNow(keys) ?? (await this.admit(keys));
    try {
      const result = await handle(request);
      await attempt.succeeded();
      return result;
    } catch (error) {
      if (error instanceof OAuthError && error.error === 'temporarily_unavailable') await attempt.refund();
      else await attempt.failed();
      throw error;
    }
  }

  /**
   * Takes a point on every key of the attempt, or throws 429 with Retry-After when one of them is used up. A refused
   * attempt checks no credential, so it gives back the points it took: refusals never lengthen a lockout nor spread
   * it (an account over its limit does not use up its address's points).
   */
  async begin(account: AttemptAccount, ip: string): Promise<Attempt> {
    const keys = this.keysOf(account, ip);
    const refusal = await this.take(keys);
    if (refusal) throw tooMany(refusal.forMs);
    return this.paidAttempt(keys);
  }

  /** The common case, without waiting: an unpaid attempt, if its keys have no failure counted and room in flight. */
  private unpaidNow(keys: Key[]): SettledAttempt | undefined {
    if (!this.recent) return undefined;
    const names = keys.map(([, , name]) => name);
    return this.recent.anyOf(names, Date.now()) || !this.hasRoom(keys) ? undefined : this.unpaidAttempt(keys, names);
  }

  /** Whether a limit's worth of unpaid attempts is not in flight yet on any of the keys. */
  private hasRoom(keys: Key[]): boolean {
    return keys.every(([limiter, , name]) => this.inFlight.unpaid(name) < limiter.points);
  }

  /**
   * Lets an attempt in, unpaid where no failure was counted lately, else by {@link begin}'s point; waits while
   * requests in flight on this instance fill the limit or hold the points it needs. Settled by its caller.
   */
  private async admit(keys: Key[]): Promise<SettledAttempt> {
    const names = keys.map(([, , name]) => name);
    const deadline = Date.now() + MAX_WAIT_MS;
    let watch: Watch | undefined;
    try {
      for (;;) {
        watch?.clear();
        if (this.recent && !this.recent.anyOf(names, Date.now())) {
          // Nothing counted on these keys: a limit's worth may be checked at once, each counted only if it fails.
          if (this.hasRoom(keys)) return this.unpaidAttempt(keys, names);
          watch ??= this.inFlight.watch(names);
          if (!(await watch.next(deadline - Date.now()))) throw tooMany(IN_FLIGHT_RETRY_MS);
          continue;
        }
        // Watched from before the points are taken, so that nothing settling meanwhile goes unseen.
        watch ??= this.inFlight.watch(names);
        const refusal = await this.take(keys);
        if (!refusal) {
          const settle = this.inFlight.enter(names);
          const attempt = this.paidAttempt(keys);
          return {
            succeeded: () => attempt.succeeded().finally(() => settle(true)),
            refund: () => attempt.refund().finally(() => settle(true)),
            failed: () => Promise.resolve(settle(false)),
          };
        }
        // Refused for failures alone (nothing in flight on a refusing key, nothing settled there meanwhile): no wait.
        const refusing = refusal.keys.map((index) => names[index]);
        const inFlight = refusing.every((name) => this.inFlight.holds(name));
        if (!inFlight && !watch.settledOn(refusing)) throw tooMany(refusal.forMs);
        if (!(await watch.next(deadline - Date.now()))) throw tooMany(refusal.forMs);
      }
    } finally {
      watch?.stop();
    }
  }

  /**
   * An attempt checked without a point: a success or a refund leaves no trace; a failure marks its keys (so that
   * later attempts take their point first) and is counted before it stops counting as in flight.
   */
  private unpaidAttempt(keys: Key[], names: string[]): SettledAttempt {
    const settle = this.inFlight.enter(names, true);
    const forgiven = () => {
      settle(true);
      return Promise.resolve();
    };
    return {
      succeeded: forgiven,
      refund: forgiven,
      failed: async () => {
        this.recent!.mark(names, Date.now());
        try {
          await Promise.all(keys.map(([limiter, key]) => limiter.consume(key).catch(overLimitIsCounted)));
        } finally {
          settle(false);
        }
      },
    };
  }

  /**
   * Takes a point on every key; when one is used up, gives them all back and tells which refused, and for how long.
   * Unpaid attempts in flight on a key count as points taken there: each may yet fail and be counted.
   */
  private async take(keys: Key[]): Promise<{ forMs: number; keys: number[] } | undefined> {
    this.recent?.mark(
      keys.map(([, , name]) => name),
      Date.now(),
    );
    // The keys are independent counters: taken (and given back) at once, one round trip to Redis rather than three.
    const waits = await Promise.all(
      keys.map(([limiter, key, name]) =>
        limiter.consume(key).then(
          ({ consumedPoints, msBeforeNext }) =>
            consumedPoints + this.inFlight.unpaid(name) > limiter.points ? Math.max(1, msBeforeNext) : 0,
          (rejection: unknown) => {
            if (!(rejection instanceof RateLimiterRes)) throw rejection;
            return rejection.msBeforeNext;
          },
        ),
      ),
    );
    const forMs = Math.max(...waits);
    if (forMs <= 0) return undefined;
    await giveBack(keys);
    return { forMs, keys: waits.flatMap((wait, index) => (wait > 0 ? [index] : [])) };
  }

  /** An attempt whose points are taken: a success gives them back and clears its strict key, a refund gives back. */
  private paidAttempt(keys: Key[]): Attempt {
    return {
      succeeded: async () => {
        if (keys.length === 1) return giveBack(keys);
        const [[strict, strictKey], ...broad] = keys;
        await Promise.all([strict.delete(strictKey), giveBack(broad)]);
      },
      refund: () => giveBack(keys),
    };
  }

  private keysOf(account: AttemptAccount, ip: string): Key[] {
    const ipKey: Key = [this.perIp, `ip:${ip}`, `ip|${ip}`];
    if (!account) return [ipKey];
    const name = `${account.kind}:${account.name.slice(0, 128)}`;
    return [
      [this.perAccountAndIp, `${name}|${ip}`, `account-ip|${name}|${ip}`],
      [this.perAccount, name, `account|${name}`],
      ipKey,
    ];
  }
}

function tooMany(refusedForMs: number): TooManyAttemptsError {
  return new TooManyAttemptsError(Math.max(1, Math.ceil(refusedForMs / 1000)));
}

/** A failure counted past the limit is still counted: rate-limiter-flexible rejects, having added the point. */
function overLimitIsCounted(rejection: unknown): void {
  if (!(rejection instanceof RateLimiterRes)) throw rejection;
}

/** Gives back the point taken on each key, all at once. */
async function giveBack(keys: readonly Key[]): Promise<void> {
  await Promise.all(keys.map(([limiter, key]) => limiter.reward(key, 1)));
}
