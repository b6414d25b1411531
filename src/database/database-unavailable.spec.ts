import { QueryFailedError } from 'typeorm';
import { isDatabaseUnavailable } from './database-unavailable.js';

const withCode = (message: string, code: string, more: Record<string, unknown> = {}) =>
  Object.assign(new Error(message), { code, ...more });
const inQuery = (driverError: Error) => new QueryFailedError('SELECT 1', [], driverError);

describe('isDatabaseUnavailable', () => {
  it.each([
    ['a connection refused on connecting', withCode('connect ECONNREFUSED', 'ECONNREFUSED', { syscall: 'connect' })],
    ['a broken connection under a query', inQuery(new Error('Connection terminated unexpectedly'))],
    ['a connection reset under a query', inQuery(withCode('read ECONNRESET', 'ECONNRESET'))],
    ['a connection reset while connecting', withCode('read ECONNRESET', 'ECONNRESET', { syscall: 'read' })],
    ['a server shutting down', inQuery(withCode('terminating connection due to administrator command', '57P01'))],
    ['a connection exception', withCode('connection failure', '08006')],
    ['no connection slot left', withCode('sorry, too many clients already', '53300')],
  ])('is true for %s', (_what, error) => expect(isDatabaseUnavailable(error)).toBe(true));

  it.each([
    ['a refused query', inQuery(withCode('duplicate key value violates unique constraint', '23505'))],
    ['a client that went away mid-request', withCode('aborted', 'ECONNRESET')],
    ['any other error', new Error('boom')],
    ['a value that is no error', 'Connection terminated'],
  ])('is false for %s', (_what, error) => expect(isDatabaseUnavailable(error)).toBe(false));
});
