import { fileTypeFromBuffer } from 'file-type';

/**
 * Decides the MIME type from the leading bytes only; the client's Content-Type and file name are never trusted.
 * Binary formats come from file-type's signatures; valid UTF-8 free of binary control bytes is text/plain, unless it
 * holds markup anywhere in the sample (then text/html, or image/svg+xml for an SVG element), so that it can be
 * refused; anything else is application/octet-stream.
 */
export async function sniffMimeType(head: Buffer): Promise<string> {
  const detected = (await fileTypeFromBuffer(head))?.mime;
  // file-type calls every XML document application/xml; as text it is judged as markup below.
  if (detected && detected !== 'application/xml') return detected;
  if (head.length > 0 && looksLikeText(head)) return markupType(head) ?? 'text/plain';
  return detected ?? 'application/octet-stream';
}

/**
 * Browsers find markup anywhere in a document, not only at its start, and XHTML or SVG behind an XML declaration,
 * a DOCTYPE or a comment runs script as well. So any tag-like sequence anywhere in the sample makes text markup:
 * `<name`, `</`, `<!` or `<?`. A `<` before a space, a digit or `=` (`a < b`, `x<3`, `1 <= 2`) is no tag.
 */
const TAG_LIKE = /<[a-z/!?]/i;
const SVG_ELEMENT = /<(?:[a-z][\w.-]*:)?svg(?:[\s/>]|$)/i;

function markupType(head: Buffer): string | undefined {
  const text = head.toString('utf8');
  if (SVG_ELEMENT.test(text)) return 'image/svg+xml';
  if (TAG_LIKE.test(text)) return 'text/html';
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
