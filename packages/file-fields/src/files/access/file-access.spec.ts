import { InsufficientScopeError } from '../../auth/auth.errors.js';
import type { Principal } from '../../auth/principal.js';
import { assertMayRead, assertMayWrite } from './file-access.js';
import { FileRecord } from '../records/file-record.entity.js';
import { FilesError } from '../../errors/files.errors.js';

const record = Object.assign(new FileRecord(), { id: 7, attachmentType: 'article' });
const holding = (...scopes: string[]): Principal => ({ subject: 'integration:1', clientId: 'c', scopes });

describe('file access by id', () => {
  it('reads with the record type’s read permission or *, never with a generic file permission', () => {
    expect(assertMayRead(holding('article:read'), record, 7)).toBe(record);
    expect(assertMayRead(holding('*'), record, 7)).toBe(record);
    for (const scopes of [['file:read'], ['product:read'], ['article:write'], []]) {
      expect(() => assertMayRead(holding(...scopes), record, 7)).toThrow(FilesError);
    }
  });

  it('answers a missing record and an unreadable one with the same 404', () => {
    const caught = (fn: () => unknown) => {
      try {
        fn();
      } catch (error) {
        return { ...(error as FilesError), message: (error as Error).message };
      }
      throw new Error('expected a throw');
    };
    const missing = caught(() => assertMayRead(holding('article:read'), null, 7));
    const hidden = caught(() => assertMayRead(holding('product:read'), record, 7));
    expect(hidden).toEqual(missing);
    expect(missing).toMatchObject({ status: 404, code: 'file-not-found' });
  });

  it('writes with the write permission; read only gives 403, neither gives 404', () => {
    expect(assertMayWrite(holding('article:write'), record, 7)).toBe(record);
    expect(() => assertMayWrite(holding('article:read'), record, 7)).toThrow(InsufficientScopeError);
    expect(() => assertMayWrite(holding('file:write', 'file:read'), record, 7)).toThrow(
      expect.objectContaining({ status: 404 }),
    );
    expect(() => assertMayWrite(holding('article:write'), null, 7)).toThrow(expect.objectContaining({ status: 404 }));
  });
});
