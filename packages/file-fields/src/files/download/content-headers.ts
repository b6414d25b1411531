import { create as contentDisposition } from 'content-disposition';
import type { FileRecord } from '../records/file-record.entity.js';

/** Types a browser may show in place; anything else is always downloaded. */
const INLINE_TYPES = new Set([
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'image/avif',
  'image/bmp',
  'application/pdf',
  'text/plain',
  'video/mp4',
  'video/webm',
  'audio/mpeg',
  'audio/ogg',
  'audio/wav',
]);

/** A strong entity tag derived from the content's SHA-256. */
export function entityTag(record: FileRecord): string {
  return `"${record.checksumSha256}"`;
}

/** Whether an If-None-Match header names this tag (weak comparison, as RFC 9110 §13.1.2 requires). */
export function matchesIfNoneMatch(header: string | undefined, tag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((candidate) => candidate.trim().replace(/^W\//, '') === tag);
}

/** `inline` with the original name for the types a browser may show in place, else `attachment`. */
export function dispositionOf(mimeType: string, originalName: string): string {
  return contentDisposition(originalName, { type: INLINE_TYPES.has(mimeType) ? 'inline' : 'attachment' });
}

/** Headers of every content response, full or partial. */
export function contentHeaders(record: FileRecord): Record<string, string> {
  return {
    'Content-Type': record.mimeType,
    ETag: entityTag(record),
    'Last-Modified': new Date(record.updatedAt).toUTCString(),
    'Accept-Ranges': 'bytes',
    'Content-Disposition': dispositionOf(record.mimeType, record.originalName),
    'X-Content-Type-Options': 'nosniff',
    'Content-Security-Policy': "default-src 'none'; sandbox",
    'Cache-Control': 'private, no-cache',
  };
}
