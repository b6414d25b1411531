import { QueryFailedError } from 'typeorm';
import { DomainError } from '../errors/domain-error.js';

/** PostgreSQL's deadlock_detected and serialization_failure: the transaction lost a race and may simply run again. */
const RETRYABLE_STATES = new Set(['40P01', '40001']);

/** Whether `error` is a deadlock or a serialization failure reported by PostgreSQL. */
export function isTransactionConflict(error: unknown): boolean {
  if (!(error instanceof QueryFailedError)) return false;
  const code = (error.driverError as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' && RETRYABLE_STATES.has(code);
}

/**
 * A transaction that lost a race with others twice in a row (deadlock or serialization failure): nothing the client
 * sent is wrong, so 503 with Retry-After instead of a 500.
 */
export class TransactionConflictError extends DomainError {
  readonly status = 503;
  readonly code = 'transaction-conflict';
  readonly title = 'Concurrent changes';

  constructor(options?: { cause?: unknown }) {
    super('The change collided with concurrent changes to the same data and was not made; retry it.');
    if (options?.cause !== undefined) this.cause = options.cause;
    this.headers['Retry-After'] = '1';
  }
}

/** The 503 of a route whose writes can collide with concurrent ones (for ApiProblems). */
export const TRANSACTION_CONFLICT_RESPONSE = [
  503,
  'Concurrent changes to the same data collided twice; retry after the Retry-After header',
] as const;
