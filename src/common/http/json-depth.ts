/** JSON nested deeper than this is refused before it is parsed: validation recurses once per level. */
const MAX_JSON_DEPTH = 64;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const LOWER_U = 0x75;
const ZERO = 0x30;
const OPENERS = new Set([0x5b, 0x7b]);
const CLOSERS = new Set([0x5d, 0x7d]);

/**
 * Throws a 400 client error (in body-parser's shape, so the problem details filter and the token endpoint render
 * it) when a JSON body nests arrays or objects deeper than `limit`, or holds U+0000 in a string (`\u0000`: JSON
 * cannot carry it otherwise). One pass over the bytes, brackets inside strings ignored; the body parser's size limit
 * bounds the work.
 */
export function assertJsonBody(raw: Buffer, limit = MAX_JSON_DEPTH): void {
  let depth = 0;
  let inString = false;
  for (let at = 0; at < raw.length; at++) {
    const byte = raw[at];
    if (inString) {
      if (byte === QUOTE) inString = false;
      else if (byte === BACKSLASH) {
        at += 1;
        if (raw[at] === LOWER_U && isZeros(raw, at + 1)) throw nulError();
      }
    } else if (byte === QUOTE) {
      inString = true;
    } else if (OPENERS.has(byte)) {
      if (++depth > limit) throw tooDeep(limit);
    } else if (CLOSERS.has(byte)) {
      depth -= 1;
    }
  }
}

/** Whether the four bytes from `at` are `0000`. */
function isZeros(raw: Buffer, at: number): boolean {
  return raw[at] === ZERO && raw[at + 1] === ZERO && raw[at + 2] === ZERO && raw[at + 3] === ZERO;
}

function tooDeep(limit: number): Error {
  return clientError(`The JSON body is nested deeper than ${limit} levels.`, 'entity.too.deep');
}

/**
 * U+0000 in any input is refused: PostgreSQL cannot store it in text, and no field of the service has a use for it.
 */
export function nulError(): Error {
  return clientError('The request holds the character U+0000 (NUL), which no field accepts.', 'request.nul');
}

function clientError(message: string, type: string): Error {
  return Object.assign(new Error(message), { status: 400, expose: true, type });
}
