import type { Request } from 'express';
import { parseItem, serializeBoolean, serializeDictionary, type Item } from 'structured-headers';
import { ResumableError, ResumableErrorCode } from '../resumable/resumable.errors.js';

/**
 * The interop version of draft-ietf-httpbis-resumable-upload this server speaks (its appendix "Draft Version
 * Identification"), sent back in every 104 and required of the clients that send one.
 */
export const DRAFT_INTEROP_VERSION = 8;
export const INTEROP_HEADER = 'Upload-Draft-Interop-Version';
/** The media type of an append's body. */
export const PARTIAL_UPLOAD = 'application/partial-upload';

/**
 * Whether a request speaks the IETF draft rather than tus or multipart: no Tus-Resumable, and Upload-Complete, the
 * interop version or a partial-upload body (so that a draft PATCH that forgot Upload-Complete is told so).
 */
export function isDraftRequest(req: Request): boolean {
  const { headers } = req;
  if (headers['tus-resumable'] !== undefined) return false;
  return (
    headers['upload-complete'] !== undefined ||
    headers['upload-draft-interop-version'] !== undefined ||
    req.is(PARTIAL_UPLOAD) === PARTIAL_UPLOAD
  );
}

/**
 * Whether the client speaks this server's interop version (only such a client is sent a 104); false when it names
 * none, as a client of the final RFC will; 412 naming ours when it names another.
 */
export function speaksInteropVersion(req: Request): boolean {
  const version = sfInteger(req, 'upload-draft-interop-version');
  if (version === undefined) return false;
  if (version === DRAFT_INTEROP_VERSION) return true;
  throw new ResumableError(
    ResumableErrorCode.ProtocolVersionUnsupported,
    `This server speaks interop version ${DRAFT_INTEROP_VERSION} of the resumable upload draft, not ${version}.`,
    { [INTEROP_HEADER]: String(DRAFT_INTEROP_VERSION) },
  );
}

/** A structured-field Boolean header (`?1` / `?0`), undefined when absent, 400 when it is anything else. */
export function sfBoolean(req: Request, name: string): boolean | undefined {
  const item = sfItem(req, name);
  if (item === undefined) return undefined;
  if (typeof item[0] !== 'boolean') throw invalid(`${label(name)} must be a structured-field Boolean: ?1 or ?0.`);
  return item[0];
}

/** A structured-field Integer header that is not negative, undefined when absent, 400 when it is anything else. */
export function sfInteger(req: Request, name: string): number | undefined {
  const raw = req.headers[name];
  const item = sfItem(req, name);
  if (item === undefined) return undefined;
  const value: unknown = item[0];
  // The parser reads `5.0` (a Decimal) as 5: only digits make an Integer.
  const decimal = String(raw).split(';')[0].includes('.');
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0 || decimal) {
    throw invalid(`${label(name)} must be a non-negative structured-field Integer.`);
  }
  return value;
}

/** Upload-Limit: the largest file the upload may become, and the seconds it has left before it expires. */
export function uploadLimit(maxSize: number, maxAgeSeconds?: number): string {
  const limits: Record<string, number> = { 'max-size': maxSize };
  if (maxAgeSeconds !== undefined) limits['max-age'] = Math.max(0, Math.floor(maxAgeSeconds));
  return serializeDictionary(limits);
}

/** Upload-Complete as a response says it: `?1` when the answer is the file field's, `?0` when the protocol's. */
export function uploadComplete(complete: boolean): string {
  return serializeBoolean(complete);
}

function sfItem(req: Request, name: string): Item | undefined {
  const raw = req.headers[name];
  if (raw === undefined) return undefined;
  // Node joins a repeated header with ", ", which no Item parses.
  try {
    return parseItem(String(raw));
  } catch {
    throw invalid(`${label(name)} is not a structured-field Item (RFC 9651), or appears more than once.`);
  }
}

function label(name: string): string {
  return name.replace(/(^|-)([a-z])/g, (_all, dash: string, letter: string) => dash + letter.toUpperCase());
}

function invalid(detail: string): ResumableError {
  return new ResumableError(ResumableErrorCode.InvalidUploadHeader, detail);
}
