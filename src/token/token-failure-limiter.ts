import { Injectable } from '@nestjs/common';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { AppConfig } from '../config/environment.js';
import { TooManyAttemptsError } from '../common/errors/oauth-error.js';

/**
 * Counts failed token requests per client_id and, separately, per IP address. Past the limit within the window,
 * requests are refused with 429 and Retry-After before any credential is checked. A success clears the client's count.
 */
@Injectable()
export class TokenFailureLimiter {
  private readonly limiter: RateLimiterMemory;
  private readonly points: number;

  constructor(config: AppConfig) {
    this.points = config.oauth.failuresPerMinute;
    this.limiter = new RateLimiterMemory({ points: this.points, duration: config.oauth.failureWindowSeconds });
  }

  async assertAllowed(clientId: string | undefined, ip: string): Promise<void> {
    for (const key of this.keys(clientId, ip)) {
      const state = await this.limiter.get(key);
      if (state && state.consumedPoints >= this.points) {
        throw new TooManyAttemptsError(Math.max(1, Math.ceil(state.msBeforeNext / 1000)));
      }
    }
  }

  async recordFailure(clientId: string | undefined, ip: string): Promise<void> {
    for (const key of this.keys(clientId, ip)) {
      await this.limiter.consume(key).catch((rejection: unknown) => {
        if (!(rejection instanceof RateLimiterRes)) throw rejection;
      });
    }
  }

  async recordSuccess(clientId: string): Promise<void> {
    await this.limiter.delete(`client:${clientId}`);
  }

  private keys(clientId: string | undefined, ip: string): string[] {
    return clientId ? [`ip:${ip}`, `client:${clientId.slice(0, 128)}`] : [`ip:${ip}`];
  }
}
