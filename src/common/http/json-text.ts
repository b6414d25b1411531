/**
 * JSON text kept for values that many responses show, so that each response copies it instead of serializing the
 * value again. The file records of a response are most of its JSON (50 covers: 46 of 54 KB), and the same records
 * are shown again and again (see FileFieldResolver); V8's JSON.stringify spent most of a list's serialization on
 * them.
 */
const texts = new WeakMap<object, string>();

/**
 * Keeps the JSON text of `value`, which must be deeply frozen and hold plain data only (no `toJSON`, no getters):
 * then its text cannot change. {@link toJson} writes that text wherever it meets this very object.
 */
export function keepJsonText(value: object): void {
  if (!Object.isFrozen(value)) throw new TypeError('keepJsonText needs a frozen value');
  texts.set(value, JSON.stringify(value));
}

/**
 * A response body already written as JSON (UTF-8): res.json sends these bytes as they are, with the type it gives any
 * JSON body.
 */
export class JsonBytes {
  constructor(readonly bytes: Buffer) {}
}

/** Set on a res.json that sends {@link JsonBytes} as they are (the service's Express adapter). */
const SENDS_JSON_BYTES = Symbol('sends JsonBytes');

/** Marks `json` as a res.json that sends {@link JsonBytes} as they are. */
export function markSendsJsonBytes(json: object): void {
  Object.defineProperty(json, SENDS_JSON_BYTES, { value: true });
}

/** Whether the Express application's res.json sends {@link JsonBytes} as they are. */
export function sendsJsonBytes(application: { response?: { json?: unknown } }): boolean {
  const json = application.response?.json;
  return typeof json === 'function' && (json as unknown as Record<symbol, unknown>)[SENDS_JSON_BYTES] === true;
}

/** Whether `value` is an object whose JSON text is kept. */
export function hasKeptJsonText(value: unknown): boolean {
  return typeof value === 'object' && value !== null && texts.has(value);
}

/** Response bodies that hold objects with kept text (see {@link holdsKeptJsonText}). */
const holders = new WeakSet<object>();

/**
 * Marks a response body that holds objects with kept text: {@link toJson} looks for them in it. Any other body is
 * written by JSON.stringify alone, which is three times as fast as looking (220 against 70 µs for 54 KB).
 */
export function holdsKeptJsonText(body: object): void {
  holders.add(body);
}

/**
 * `JSON.stringify(value)`, the same text (what a test checks over many kinds of values); for a body marked by
 * {@link holdsKeptJsonText}, with the text kept by {@link keepJsonText} for the objects that have one.
 */
export function toJson(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null || !holders.has(value)) return JSON.stringify(value);
  const parts: string[] = [];
  return write(value, '', parts, []) ? parts.join('') : undefined;
}

/** Property names as written, `"name":`, for the names responses use (bounded: some names come from data). */
const names = new Map<string, string>();
const NAMES_LIMIT = 1_000;

function nameOf(key: string): string {
  let text = names.get(key);
  if (text === undefined) {
    text = `${JSON.stringify(key)}:`;
    if (names.size < NAMES_LIMIT) names.set(key, text);
  }
  return text;
}

/**
 * Writes `value` (the value of property `key`) as JSON.stringify's SerializeJSONProperty does; false for what it
 * leaves out (undefined, functions, symbols). `open` holds the objects being written, to refuse cycles as it does.
 */
function write(value: unknown, key: string, parts: string[], open: object[]): boolean {
  if (typeof value === 'object' && value !== null) {
    const text = texts.get(value);
    if (text !== undefined) {
      parts.push(text);
      return true;
    }
  }
  if ((typeof value === 'object' && value !== null) || typeof value === 'bigint') {
    const toJSON = (value as { toJSON?: unknown }).toJSON;
    if (typeof toJSON === 'function') value = toJSON.call(value, key) as unknown;
  }
  switch (typeof value) {
    case 'string':
      parts.push(JSON.stringify(value));
      return true;
    case 'number':
      parts.push(Number.isFinite(value) ? String(value) : 'null');
      return true;
    case 'boolean':
      parts.push(value ? 'true' : 'false');
      return true;
    case 'object':
      break;
    case 'bigint':
      // Throws as JSON.stringify does.
      parts.push(JSON.stringify(value));
      return true;
    default:
      return false;
  }
  if (value === null) {
    parts.push('null');
    return true;
  }
  if (value instanceof Number || value instanceof String || value instanceof Boolean || value instanceof BigInt) {
    parts.push(JSON.stringify(value));
    return true;
  }
  if (open.includes(value)) throw new TypeError('Converting circular structure to JSON');
  open.push(value);
  if (Array.isArray(value)) {
    parts.push('[');
    for (let index = 0; index < value.length; index++) {
      if (index > 0) parts.push(',');
      if (!write(value[index], String(index), parts, open)) parts.push('null');
    }
    parts.push(']');
  } else {
    parts.push('{');
    let first = true;
    for (const name of Object.keys(value)) {
      const at = parts.length;
      parts.push(first ? nameOf(name) : `,${nameOf(name)}`);
      if (write((value as Record<string, unknown>)[name], name, parts, open)) first = false;
      else parts.length = at;
    }
    parts.push('}');
  }
  open.pop();
  return true;
}
