import type { Request } from 'express';
import { ResumableError, ResumableErrorCode } from '../resumable/resumable.errors.js';
import type { BodyChecksum } from '../resumable/engine/append-run.js';

export const TUS_VERSION = '1.0.0';
export const TUS_EXTENSIONS = 'creation,creation-with-upload,creation-defer-length,termination,expiration,checksum';
export const OFFSET_OCTET_STREAM = 'application/offset+octet-stream';

/**
 * Upload-Checksum algorithms (tus names) and node:crypto's names for them. A Map: a client's name such as
 * `constructor` or `__proto__` must find nothing, not a property every object inherits.
 */
const CHECKSUM_ALGORITHMS = new Map([
  ['sha1', 'sha1'],
  ['sha256', 'sha256'],
  ['sha512', 'sha512'],
  ['md5', 'md5'],
]);
export const TUS_CHECKSUM_ALGORITHMS = [...CHECKSUM_ALGORITHMS.keys()].join(',');

/** The largest Upload-Metadata kept: it is stored with the upload and shown back on HEAD. */
const MAX_METADATA_LENGTH = 4096;
const DIGITS = /^\d{1,15}$/;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const METADATA_KEY = /^[!-+\--~]+$/;

/** Whether a request speaks tus (it carries Tus-Resumable). */
export function isTusRequest(req: Request): boolean {
  return req.headers['tus-resumable'] !== undefined;
}

/** 412 with the versions this server speaks, when the request's Tus-Resumable is not one of them. */
export function assertTusVersion(req: Request): void {
  if (req.headers['tus-resumable'] === TUS_VERSION) return;
  throw new ResumableError(
    ResumableErrorCode.ProtocolVersionUnsupported,
    `Send Tus-Resumable: ${TUS_VERSION}, the version this server speaks.`,
    { 'Tus-Version': TUS_VERSION },
  );
}

/** Read from the header itself: Express's `req.is()` answers null for an empty body, which a PATCH may have. */
export function isOffsetOctetStream(req: Request): boolean {
  const type = req.headers['content-type']?.split(';')[0].trim().toLowerCase();
  return type === OFFSET_OCTET_STREAM;
}

/** A header holding a non-negative integer, undefined when absent, 400 when malformed. */
export function integerHeader(req: Request, name: string): number | undefined {
  const value = req.headers[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !DIGITS.test(value)) throw invalid(`${name} must be a non-negative integer.`);
  return Number(value);
}

/** The declared length at creation: Upload-Length, or null with Upload-Defer-Length: 1; 400 for neither or both. */
export function creationLength(req: Request): number | null {
  const length = integerHeader(req, 'upload-length');
  const deferred = req.headers['upload-defer-length'];
  if (deferred !== undefined && (deferred !== '1' || length !== undefined)) {
    throw invalid('Upload-Defer-Length must be 1, and only without Upload-Length.');
  }
  if (length === undefined && deferred === undefined) throw invalid('Send Upload-Length, or Upload-Defer-Length: 1.');
  return length ?? null;
}

/** Upload-Metadata as sent (kept to show back) and decoded: `key base64,key base64`; 400 when malformed. */
export function uploadMetadata(req: Request): { raw: string | null; values: Map<string, string> } {
  const raw = req.headers['upload-metadata'];
  const values = new Map<string, string>();
  if (raw === undefined || raw === '') return { raw: null, values };
  if (typeof raw !== 'string' || raw.length > MAX_METADATA_LENGTH) {
    throw invalid(`Upload-Metadata must be at most ${MAX_METADATA_LENGTH} characters.`);
  }
  for (const pair of raw.split(',')) {
    const [key, value = '', ...rest] = pair.trim().split(' ');
    if (!key || !METADATA_KEY.test(key) || rest.length > 0 || !BASE64.test(value) || values.has(key)) {
      throw invalid('Upload-Metadata must be comma-separated pairs of a unique key and a base64 value.');
    }
    values.set(key, Buffer.from(value, 'base64').toString('utf8'));
  }
  return { raw, values };
}

/** Upload-Checksum (`<algorithm> <base64 digest>`), undefined when absent; 400 for an algorithm not offered. */
export function uploadChecksum(req: Request): BodyChecksum | undefined {
  const header = req.headers['upload-checksum'];
  if (header === undefined) return undefined;
  const [name = '', digest = '', ...rest] = typeof header === 'string' ? header.split(' ') : [];
  const algorithm = CHECKSUM_ALGORITHMS.get(name);
  if (!algorithm || !digest || !BASE64.test(digest) || rest.length > 0) {
    throw invalid(`Upload-Checksum must be "<algorithm> <base64 digest>" with one of ${TUS_CHECKSUM_ALGORITHMS}.`);
  }
  return { algorithm, digest: Buffer.from(digest, 'base64') };
}

/** Upload-Expires as HTTP writes dates. */
export function httpDate(epochMs: number): string {
  return new Date(epochMs).toUTCString();
}

function invalid(detail: string): ResumableError {
  return new ResumableError(ResumableErrorCode.InvalidUploadHeader, detail);
}
