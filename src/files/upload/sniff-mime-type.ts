import { fileTypeFromBuffer } from 'file-type';

/**
 * Decides the MIME type from the leading bytes only; the client's Content-Type and file name are never trusted.
 * Binary formats come from file-type's signatures; valid UTF-8 free of binary control bytes is text/plain;
 * anything else is application/octet-stream.
 */
export async function sniffMimeType(head: Buffer): Promise<string> {
  const detected = await fileTypeFromBuffer(head);
  if (detected) return detected.mime;
  if (head.length > 0 && looksLikeText(head)) return 'text/plain';
  return 'application/octet-stream';
}

/** Control bytes that do not occur in text (tab, newlines, form feed and escape do). */
// eslint-disable-next-line no-control-regex -- matching control bytes is the point
const BINARY_CONTROL = /[\x00-\x08\x0e-\x1a\x1c-\x1f\x7f]/;

function looksLikeText(head: Buffer): boolean {
  if (BINARY_CONTROL.test(head.toString('latin1'))) return false;
  try {
    // `stream: true` tolerates a multi-byte character cut at the end of the sample.
    new TextDecoder('utf-8', { fatal: true }).decode(head, { stream: true });
    return true;
  } catch {
    return false;
  }
}
