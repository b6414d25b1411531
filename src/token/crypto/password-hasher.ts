import { Inject, Injectable } from '@nestjs/common';
import pLimit, { type LimitFunction } from 'p-limit';
import { tokenConfig, type TokenConfig } from '../token.config.js';
import { DomainError } from '@file-fields/nest';
import { hashPassword, verifyPassword } from './secrets.js';

/** More password checks are waiting than the service takes: answered 503 with Retry-After. */
export class PasswordHashingBusyError extends DomainError {
  readonly status = 503;
  readonly code = 'busy';
  readonly title = 'Busy';
  readonly retryAfterSeconds = 1;

  constructor() {
    super('Too many sign-ins are being checked at once; retry shortly.');
    this.headers['Retry-After'] = String(this.retryAfterSeconds);
  }
}

/**
 * scrypt is deliberately expensive (about 50 ms of a libuv thread each). Without a bound, a burst of password
 * attempts fills the thread pool that file I/O and DNS also need, and every other request stalls. So at most
 * PASSWORD_HASH_CONCURRENCY hashes run at once, PASSWORD_HASH_QUEUE more wait, and anything beyond is refused.
 */
@Injectable()
export class PasswordHasher {
  private readonly limit: LimitFunction;
  private readonly capacity: number;

  constructor(@Inject(tokenConfig.KEY) config: TokenConfig) {
    this.limit = pLimit(config.passwordHashConcurrency);
    this.capacity = config.passwordHashConcurrency + config.passwordHashQueue;
  }

  hash(password: string): Promise<string> {
    return this.run(() => hashPassword(password));
  }

  verify(password: string, stored: string): Promise<boolean> {
    return this.run(() => verifyPassword(password, stored));
  }

  private run<T>(task: () => Promise<T>): Promise<T> {
    if (this.limit.activeCount + this.limit.pendingCount >= this.capacity) {
      return Promise.reject(new PasswordHashingBusyError());
    }
    return this.limit(task);
  }
}
