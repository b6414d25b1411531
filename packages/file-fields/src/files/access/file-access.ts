import { InsufficientScopeError } from '../../auth/auth.errors.js';
import type { Principal } from '../../auth/principal.js';
import { grants } from '../../auth/permissions.js';
import type { FileRecord } from '../records/file-record.entity.js';
import { FilesError, FilesErrorCode } from '../../errors/files.errors.js';

/*
 * A file addressed by id needs the permission of its entity type (`product:read`, `article:write`). The type is
 * read from the record itself, after the id was parsed, never from how the request path was spelled: routing is
 * case-insensitive and the id may be padded or percent-encoded, so anything derived from the raw path can miss.
 * There is no fallback permission.
 */

/** The answer to a missing file and to a file whose type the principal may not read: alike, so no type leaks. */
export function fileNotFound(id: number): FilesError {
  return new FilesError(FilesErrorCode.FileNotFound, `File ${id} does not exist.`);
}

/** The record, when the principal may read files of its type; otherwise 404. */
export function assertMayRead(principal: Principal, record: FileRecord | null, id: number): FileRecord {
  if (!record || !grants(principal.scopes, `${record.attachmentType}:read`)) throw fileNotFound(id);
  return record;
}

/**
 * The record, when the principal may change files of its type. A principal that may read it but not write gets
 * 403 insufficient-scope (it knows the file exists anyway); one that may do neither gets 404.
 */
export function assertMayWrite(principal: Principal, record: FileRecord | null, id: number): FileRecord {
  if (!record) throw fileNotFound(id);
  const required = `${record.attachmentType}:write`;
  if (grants(principal.scopes, required)) return record;
  if (grants(principal.scopes, `${record.attachmentType}:read`)) throw new InsufficientScopeError(required);
  throw fileNotFound(id);
}
