import { Inject, Injectable } from '@nestjs/common';
import {
  RateLimiterMemory,
  RateLimiterRedis,
  RateLimiterRes,
  type IRateLimiterOptions,
  type RateLimiterAbstract,
} from 'rate-limiter-flexible';
import { RedisConnection } from '../redis/redis-connection.js';
import { ADMIN_CLIENT_ID } from './grants/grant.js';
import { tokenConfig, type TokenConfig } from './token.config.js';
import { OAuthError, TooManyAttemptsError } from './oauth-error.js';
import type { ClientCredentials } from './token-request.js';

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

/**
 * Counts token requests that fail, on three keys: the account (username or client_id) from one IP address (strict:
 * TOKEN_FAILURES_PER_MINUTE), the account from anywhere (TOKEN_FAILURES_PER_ACCOUNT) and the IP address whatever
 * the account (TOKEN_FAILURES_PER_IP). The point is taken before any credential is checked, so concurrent attempts
 * cannot slip past the limit; a success gives back only its own points and clears only its own strict key, so one
 * account's successes never reset another's failures.
 *
 * With REDIS_URL the counters live in Redis and hold across instances; while Redis is unreachable each instance
 * counts in its own memory (rate-limiter-flexible's insurance limiter), so requests are still served and limited.
 */
@Injectable()
export class TokenFailureLimiter {
  private readonly perAccountAndIp: RateLimiterAbstract;
  private readonly perAccount: RateLimiterAbstract;
  private readonly perIp: RateLimiterAbstract;

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
   * counters; a success forgives it, an OAuth error (the client's fault) keeps it, anything else gives it back.
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
    const attempt = await this.begin(accountOf(request), ip);
    try {
      const result = await handle(request);
      await attempt.succeeded();
      return result;
    } catch (error) {
      if (!(error instanceof OAuthError) || error.status >= 500) await attempt.refund();
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
    const refusedForMs = Math.max(...waits);
    if (refusedForMs > 0) {
      await giveBack(keys);
      throw new TooManyAttemptsError(Math.max(1, Math.ceil(refusedForMs / 1000)));
    }
    return {
      succeeded: async () => {
        if (!account) return giveBack(keys);
        const [[strict, strictKey], ...broad] = keys;
        await Promise.all([strict.delete(strictKey), giveBack(broad)]);
      },
      refund: () => giveBack(keys),
    };
  }

  private keysOf(account: AttemptAccount, ip: string): Array<[RateLimiterAbstract, string]> {
    const ipKey: [RateLimiterAbstract, string] = [this.perIp, `ip:${ip}`];
    if (!account) return [ipKey];
    const name = `${account.kind}:${account.name.slice(0, 128)}`;
    return [[this.perAccountAndIp, `${name}|${ip}`], [this.perAccount, name], ipKey];
  }
}

/** Gives back the point taken on each key, all at once. */
async function giveBack(keys: ReadonlyArray<[RateLimiterAbstract, string]>): Promise<void> {
  await Promise.all(keys.map(([limiter, key]) => limiter.reward(key, 1)));
}
