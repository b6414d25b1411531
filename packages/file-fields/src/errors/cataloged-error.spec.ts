import { CatalogedError, type ErrorCatalog } from './cataloged-error.js';
import { DomainError } from './domain-error.js';

enum KettleCode {
  Empty = 'kettle-empty',
  Boiling = 'kettle-boiling',
}

const KETTLE_ERRORS: ErrorCatalog<KettleCode> = {
  [KettleCode.Empty]: [409, 'Kettle is empty'],
  [KettleCode.Boiling]: [503, 'Kettle is boiling', 30],
};

class KettleError extends CatalogedError<KettleCode> {
  constructor(code: KettleCode, detail: string, options?: { cause?: unknown }) {
    super(KETTLE_ERRORS, code, detail, options);
  }
}

describe('CatalogedError', () => {
  it('takes status and title from the catalog entry of its code', () => {
    const error = new KettleError(KettleCode.Empty, 'Fill it first.');
    expect(error).toBeInstanceOf(DomainError);
    expect(error).toMatchObject({
      name: 'KettleError',
      code: 'kettle-empty',
      status: 409,
      title: 'Kettle is empty',
      message: 'Fill it first.',
      headers: {},
    });
    expect('cause' in error).toBe(false);
  });

  it('answers Retry-After only for codes whose entry has one, and keeps the cause', () => {
    const cause = new Error('EBUSY');
    const error = new KettleError(KettleCode.Boiling, 'Wait.', { cause });
    expect(error.headers).toEqual({ 'Retry-After': '30' });
    expect(error.cause).toBe(cause);
  });
});
