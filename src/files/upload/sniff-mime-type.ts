import { fileTypeFromBuffer } from 'file-type';

/**
 * Decides the MIME type from the leading bytes only; the client's Content-Type and file name are never trusted.
 * Binary formats come from file-type's signatures; valid UTF-8 free of binary control bytes is text/plain, or
 * text/html, image/svg+xml or application/xml when it starts as such markup; anything else is application/octet-stream.
 */
export async function sniffMimeType(head: Buffer): Promise<string> {
  const detected = (await fileTypeFromBuffer(head))?.mime;
  // file-type calls every XML document application/xml; an SVG image must be told apart.
  if (detected && detected !== 'application/xml') return detected;
  if (head.length > 0 && looksLikeText(head)) return markupType(head) ?? detected ?? 'text/plain';
  return detected ?? 'application/octet-stream';
}

/** Text that a browser would render as a page or an SVG image must be named so, so that it can be refused. */
function markupType(head: Buffer): string | undefined {
  const start = head
    .toString('utf8')
    .replace(/^\uFEFF/, '')
    .trimStart()
    .slice(0, 1024)
    .toLowerCase();
  if (/^<(!doctype html|html|head|body|script|iframe|!--)/.test(start)) return 'text/html';
  if (/^(<\?xml[^>]*>\s*)?(<!--[\s\S]*?-->\s*)*(<!doctype svg[^>]*>\s*)?<svg[\s>]/.test(start)) return 'image/svg+xml';
  if (start.startsWith('<?xml')) return 'application/xml';
  return undefined;
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
