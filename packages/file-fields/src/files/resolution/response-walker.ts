const MAX_DEPTH = 32;

/** Values the walker never looks inside: bytes, streams, dates and other opaque objects. */
function isOpaque(value: object): boolean {
  return (
    // Dates first: the opaque values responses hold most.
    value instanceof Date ||
    ArrayBuffer.isView(value) ||
    value instanceof ArrayBuffer ||
    value instanceof Map ||
    value instanceof Set ||
    value instanceof Promise ||
    typeof (value as { pipe?: unknown }).pipe === 'function' ||
    typeof (value as { getStream?: unknown }).getStream === 'function'
  );
}

/**
 * Finds every object in a response body (the body itself, array items, properties of wrapper objects,
 * nested at any depth up to a limit) for which `match` returns a value, visiting each object once.
 */
export function collectMatches<T>(body: unknown, match: (value: object) => T | undefined): Array<[object, T]> {
  const found: Array<[object, T]> = [];
  const seen = new WeakSet<object>();
  const visit = (value: unknown, depth: number): void => {
    if (value === null || typeof value !== 'object' || depth > MAX_DEPTH || seen.has(value) || isOpaque(value)) {
      return;
    }
    seen.add(value);
    const hit = match(value);
    if (hit !== undefined) found.push([value, hit]);
    const children = Array.isArray(value) ? value : Object.values(value);
    for (const child of children) visit(child, depth + 1);
  };
  visit(body, 0);
  return found;
}
