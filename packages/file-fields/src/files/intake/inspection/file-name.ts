/** C0 and C1 control characters and DEL. */
// eslint-disable-next-line no-control-regex -- stripping control characters is the point
const CONTROLS = /[\u0000-\u001f\u007f-\u009f]/g;

/**
 * Bidirectional formatting characters: U+202E can show `evil\u202Egnp.exe` as `evilexe.png`, hiding an extension.
 * Embeddings and overrides (U+202A-U+202E), isolates (U+2066-U+2069) and the marks LRM, RLM and ALM.
 */
const BIDI_CONTROLS = /[\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]/g;

/**
 * Keeps the client's file name for display only: no directories, no control characters, no bidirectional
 * formatting characters, at most 255 characters.
 */
export function sanitizeName(name: string | undefined): string {
  const base = (name ?? '').split(/[\\/]/).pop() ?? '';
  const clean = base.replace(CONTROLS, '').replace(BIDI_CONTROLS, '').trim();
  // Cut by code points: slicing UTF-16 units could split an emoji into a lone surrogate that PostgreSQL refuses.
  return [...(clean || 'file')].slice(0, 255).join('');
}
