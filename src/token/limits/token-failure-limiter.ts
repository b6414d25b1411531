import { Inject, Injectable } from '@nestjs/common';
import {
  RateLimiterMemory,
  RateLimiterRedis,
  RateLimiterRes,
  type IRateLimiterOptions,
  type RateLimiterAbstract,
} from 'rate-limiter-flexible';
import { RedisConnection } from '../../redis/index.js';
import { ADMIN_CLIENT_ID } from '../grants/grant.js';
import { tokenConfig, type TokenConfig } from '../token.config.js';
import { InFlightAttempts } from './in-flight-attempts.js';
import { OAuthError, TooManyAttemptsError } from '../oauth-error.js';
import type { ClientCredentials } from '../issuing/token-request.js';

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

/** How long an attempt refused only for attempts in flight waits for them, at most, before it is refused. */
const MAX_WAIT_MS = 10_000;

type Key = [limiter: RateLimiterAbstract, key: string, name: string];

/**
 * Counts token requests that fail, on three keys: the account (username or client_id) from one IP address (strict:
 * TOKEN_FAILURES_PER_MINUTE), the account from anywhere (TOKEN_FAILURES_PER_ACCOUNT) and the IP address whatever
 * the account (TOKEN_FAILURES_PER_IP). The point is taken before any credential is checked, so concurrent attempts
 * cannot slip past the limit; a success gives back only its own points and clears only its own strict key, so one
 * account's successes never reset another's failures.
 *
 * A point taken is held while its request is in flight. So that requests in flight do not make a valid client look
 * like a guesser, a request refused while this instance has requests in flight on the refusing keys waits for them
 * to settle (a success gives its points back) and tries again; it is refused once no request is in flight there.
 *
 * With REDIS_URL the counters live in Redis and hold across instances; while Redis is unreachable each instance
 * counts in its own memory (rate-limiter-flexible's insurance limiter), so requests are still served and limited.
 */
@Injectable()
export class TokenFailureLimiter {
  private readonly perAccountAndIp: RateLimiterAbstract;
  private readonly perAccount: RateLimiterAbstract;
  private readonly perIp: RateLimiterAbstract;
  private readonly inFlight = new InFlightAttempts();

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
  }

  /**
   * Runs one request of the token or revocation endpoint within the limits. A request that cannot be parsed names no
   * account it could be counted against reliably: only its address pays. A parsed one takes a point from its account's
   * counters; a success forgives it, and only a request the service declined to check (busy, 503) gets it back: any
   * other error, a 500 included, may have come after a check, and must not let a client guess for free.
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
    const attempt = await this.admit(accountOf(request), ip);
    try {
      const result = await handle(request);
      await attempt.succeeded();
      return result;
    } catch (error) {
      if (error instanceof OAuthError && error.error === 'temporarily_unavailable') await attempt.refund();
      else attempt.failed();
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
    return this.attemptOn(account, keys);
  }

  /** {@link begin}, waiting while requests in flight on this instance hold the points; settled by its caller. */
  private async admit(account: AttemptAccount, ip: string): Promise<Attempt & { failed(): void }> {
    const keys = this.keysOf(account, ip);
    const names = keys.map(([, , name]) => name);
    const watch = this.inFlight.watch(names);
    const deadline = Date.now() + MAX_WAIT_MS;
    try {
      for (;;) {
        watch.clear();
        const refusal = await this.take(keys);
        if (!refusal) {
          const settle = this.inFlight.enter(names);
          const attempt = this.attemptOn(account, keys);
          return {
            succeeded: () => attempt.succeeded().finally(() => settle(true)),
            refund: () => attempt.refund().finally(() => settle(true)),
            failed: () => settle(false),
          };
        }
        // Refused for failures alone (nothing in flight on a refusing key, nothing settled there meanwhile): no wait.
        const refusing = refusal.keys.map((index) => names[index]);
        const inFlight = refusing.every((name) => this.inFlight.holds(name));
        if (!inFlight && !watch.settledOn(refusing)) throw tooMany(refusal.forMs);
        if (!(await watch.next(deadline - Date.now()))) throw tooMany(refusal.forMs);
      }
    } finally {
      watch.stop();
    }
  }

  /** Takes a point on every key; when one is used up, gives them all back and tells which refused, and for how long. */
  private async take(keys: Key[]): Promise<{ forMs: number; keys: number[] } | undefined> {
    // The keys are independent counters: taken (and given back) at once, one round trip to Redis rather than three.
    const waits = await Promise.all(
      keys.map(([limiter, key]) =>
        limiter.consume(key).then(
          () => 0,
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

  private attemptOn(account: AttemptAccount, keys: Key[]): Attempt {
    return {
      succeeded: async () => {
        if (!account) return giveBack(keys);
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

/** Gives back the point taken on each key, all at once. */
async function giveBack(keys: readonly Key[]): Promise<void> {
  await Promise.all(keys.map(([limiter, key]) => limiter.reward(key, 1)));
}
