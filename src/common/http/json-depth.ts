/** JSON nested deeper than this is refused before it is parsed: validation recurses once per level. */
export const MAX_JSON_DEPTH = 64;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPENERS = new Set([0x5b, 0x7b]);
const CLOSERS = new Set([0x5d, 0x7d]);

/**
 * Throws a 400 client error (in body-parser's shape, so the problem details filter and the token endpoint render
 * it) when a JSON body nests arrays or objects deeper than `limit`. One pass over the bytes, brackets inside
 * strings ignored; the body parser's size limit bounds the work.
 */
export function assertJsonDepth(raw: Buffer, limit = MAX_JSON_DEPTH): void {
  let depth = 0;
  let inString = false;
  let escaped = false;
  for (const byte of raw) {
    if (inString) {
      if (escaped) escaped = false;
      else if (byte === BACKSLASH) escaped = true;
      else if (byte === QUOTE) inString = false;
    } else if (byte === QUOTE) {
      inString = true;
    } else if (OPENERS.has(byte)) {
      if (++depth > limit) throw tooDeep(limit);
    } else if (CLOSERS.has(byte)) {
      depth -= 1;
    }
  }
}

function tooDeep(limit: number): Error {
  const message = `The JSON body is nested deeper than ${limit} levels.`;
  return Object.assign(new Error(message), { status: 400, expose: true, type: 'entity.too.deep' });
}
