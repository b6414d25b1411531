import { QueryFailedError } from 'typeorm';
import { DomainError } from '@file-fields/nest';

/** PostgreSQL shutting down or starting up (57P01-57P03), or no connection slot left (53300); class 08 besides. */
const SERVER_CODES = new Set(['57P01', '57P02', '57P03', '53300']);
/**
 * Socket errors of the service's own connections (a query's, or a connection's start: pg passes them on as they are).
 * A client that went away mid-request raises ECONNRESET too, but as `aborted`, with no system call: not counted.
 */
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH']);
const SOCKET_CALLS = new Set(['connect', 'read', 'write']);
/** What the pg driver says when the connection under a query or a new connection's start-up breaks (no code). */
const UNAVAILABLE_MESSAGES =
  /^(Connection terminated|Client has encountered a connection error|timeout exceeded when trying to connect)/;

/** Whether `error` says the database could not be reached or dropped the connection, rather than refused a query. */
export function isDatabaseUnavailable(error: unknown): boolean {
  const query = error instanceof QueryFailedError;
  const candidate: unknown = query ? error.driverError : error;
  if (!(candidate instanceof Error)) return false;
  const { code, syscall } = candidate as { code?: unknown; syscall?: unknown };
  if (typeof code === 'string') {
    if (SERVER_CODES.has(code) || /^08[0-9A-Z]{3}$/.test(code)) return true;
    if (SOCKET_CODES.has(code) && (query || SOCKET_CALLS.has(String(syscall)))) return true;
  }
  return UNAVAILABLE_MESSAGES.test(candidate.message);
}

/**
 * The database is out of reach (down, restarting, the network cut): the request was fine and its transaction, if it
 * had begun, is rolled back, so 503 with Retry-After instead of a 500.
 */
export class DatabaseUnavailableError extends DomainError {
  readonly status = 503;
  readonly code = 'database-unavailable';
  readonly title = 'Database unavailable';

  constructor(options?: { cause?: unknown }) {
    super('The database cannot be reached at the moment; nothing was changed. Retry later.');
    if (options?.cause !== undefined) this.cause = options.cause;
    this.headers['Retry-After'] = '5';
  }
}
