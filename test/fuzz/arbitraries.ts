/*
 * JSON Schema → fast-check arbitraries: values valid by the schema (with hints per property name, so that requests
 * name things that exist and reach past the first check), and the hostile values mutations put in their place.
 */
import fc from 'fast-check';
import { deref, type Document, type Schema } from './operations.js';

/** Valid values for well-known property and parameter names, preferred over what the bare schema allows. */
export type Hints = Record<string, fc.Arbitrary<unknown>>;

const MAX_STRING = 40;
const MAX_ITEMS = 4;

/** Values valid by `schema`. */
export function validValue(
  document: Document,
  schema: Schema,
  hints: Hints,
  name?: string,
  depth = 0,
): fc.Arbitrary<unknown> {
  const node = merged(document, schema);
  const hint = name ? hints[name] : undefined;
  const plain = bareValue(document, node, hints, depth);
  const withHint = hint ? fc.oneof({ arbitrary: hint, weight: 4 }, { arbitrary: plain, weight: 1 }) : plain;
  return node.nullable
    ? fc.oneof({ arbitrary: withHint, weight: 5 }, { arbitrary: fc.constant(null), weight: 1 })
    : withHint;
}

/** `allOf` folded into one schema; `$ref`s followed. */
function merged(document: Document, schema: Schema): Schema {
  const node = deref(document, schema);
  if (!node.allOf) return node;
  const parts = node.allOf.map((part) => merged(document, part));
  const { allOf: _, ...rest } = node;
  return parts.reduce<Schema>(
    (all, part) => ({
      ...part,
      ...all,
      properties: { ...part.properties, ...all.properties },
      required: [...(part.required ?? []), ...(all.required ?? [])],
    }),
    rest,
  );
}

function bareValue(document: Document, node: Schema, hints: Hints, depth: number): fc.Arbitrary<unknown> {
  if (node.enum) return fc.constantFrom(...node.enum);
  if (node.const !== undefined) return fc.constant(node.const);
  const variants = node.oneOf ?? node.anyOf;
  if (variants)
    return fc.oneof(...variants.map((variant) => validValue(document, variant, hints, undefined, depth + 1)));
  const example = node.example !== undefined ? [fc.constant(node.example)] : [];
  switch (node.type ?? (node.properties ? 'object' : undefined)) {
    case 'integer':
    case 'number': {
      const min = Math.max(node.minimum ?? -1_000_000, -2_147_483_648);
      const max = Math.min(node.maximum ?? 1_000_000, 2_147_483_647);
      const numbers = node.type === 'integer' ? fc.integer({ min, max }) : fc.double({ min, max, noNaN: true });
      return fc.oneof(numbers, ...example);
    }
    case 'boolean':
      return fc.boolean();
    case 'string':
      return fc.oneof(
        { arbitrary: stringOf(node), weight: 3 },
        ...example.map((arbitrary) => ({ arbitrary, weight: 1 })),
      );
    case 'array': {
      if (depth > 4) return fc.constant([]);
      const items = validValue(document, node.items ?? {}, hints, undefined, depth + 1);
      const minLength = node.minItems ?? 0;
      const maxLength = Math.max(minLength, Math.min(node.maxItems ?? MAX_ITEMS, MAX_ITEMS));
      return node.uniqueItems
        ? fc.uniqueArray(items, { minLength, maxLength, selector: (item) => JSON.stringify(item) })
        : fc.array(items, { minLength, maxLength });
    }
    case 'object': {
      if (depth > 4) return fc.constant({});
      const properties = node.properties ?? {};
      const model = Object.fromEntries(
        Object.entries(properties).map(([key, property]) => [
          key,
          validValue(document, property, hints, key, depth + 1),
        ]),
      );
      const requiredKeys = (node.required ?? []).filter((key) => key in model);
      return fc.record(model, { requiredKeys });
    }
    default:
      return fc.oneof(fc.string({ maxLength: MAX_STRING }), fc.integer(), fc.boolean());
  }
}

function stringOf(node: Schema): fc.Arbitrary<string> {
  if (node.format === 'date-time') {
    return fc
      .date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2100-01-01T00:00:00Z'), noInvalidDate: true })
      .map((date) => date.toISOString());
  }
  if (node.format === 'binary') return fc.string({ maxLength: MAX_STRING });
  const minLength = node.minLength ?? 0;
  const maxLength = Math.max(minLength, Math.min(node.maxLength ?? MAX_STRING, MAX_STRING));
  return fc.string({ minLength, maxLength, unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz0123456789-_. ') });
}

// ---- Hostile values ---------------------------------------------------------------------------------------------

/** Strings that have broken parsers and databases: NUL, lone surrogates, long ones, prototype keys, escapes. */
export const hostileString: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '',
    ' ',
    '\u0000',
    'a\u0000b',
    '\uD800',
    '\uDFFFx',
    '\u202Eevil',
    'e\u0301\u0301\u0301',
    '😀'.repeat(50),
    'ß'.repeat(301),
    'x'.repeat(201),
    'x'.repeat(10_001),
    'x'.repeat(100_000),
    '__proto__',
    'constructor',
    'prototype',
    'toString',
    '../../../../etc/passwd',
    '%00',
    '%',
    '%zz',
    "' OR 1=1 --",
    '"; DROP TABLE users; --',
    '<script>alert(1)</script>',
    '${7*7}',
    'null',
    'true',
    '-1',
    '1e309',
    'NaN',
    '0x10',
    '2147483648',
    '9007199254740993',
    '\t\n\r',
    '*',
  ),
  fc.string({ unit: 'binary', maxLength: 60 }),
  fc.string({ unit: 'grapheme', maxLength: 30 }),
);

/** Numbers at and past the edges of the columns and of JavaScript. */
export const hostileNumber: fc.Arbitrary<number> = fc.oneof(
  fc.constantFrom(
    0,
    -0,
    -1,
    0.5,
    1.5,
    2_147_483_647,
    2_147_483_648,
    -2_147_483_649,
    4_294_967_296,
    1e21,
    1e308,
    -1e308,
  ),
  fc.constantFrom(Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER + 2, Number.MIN_SAFE_INTEGER, Number.MIN_VALUE),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);

/** A value of any JSON type, hostile where it can be. */
export const wrongValue: fc.Arbitrary<unknown> = fc.oneof(
  hostileString,
  hostileNumber,
  fc.boolean(),
  fc.constant(null),
  fc.constant([]),
  fc.constant({}),
  fc.array(fc.oneof(hostileString, hostileNumber), { maxLength: 3 }),
  fc.constant({ admin: true, permissions: ['*'] }),
  fc.constant([[[[[[[[[[]]]]]]]]]]),
);

/** A header value: hostile text without CR or LF (those end the header on the wire), NUL and non-ASCII included. */
export const hostileHeaderValue: fc.Arbitrary<string> = fc.oneof(
  hostileString.map((value) => value.replace(/[\r\n]/g, '')),
  hostileNumber.map(String),
);

/** The values at and just past a schema's bounds (lengths, ranges, item counts). */
export function boundaryValues(document: Document, schema: Schema): unknown[] {
  const node = merged(document, schema);
  const values: unknown[] = [];
  if (node.type === 'integer' || node.type === 'number') {
    for (const bound of [node.minimum, node.maximum]) if (bound !== undefined) values.push(bound, bound - 1, bound + 1);
    values.push(2_147_483_648, -2_147_483_649, 1.5);
  }
  if (node.type === 'string') {
    for (const bound of [node.minLength, node.maxLength]) {
      if (bound !== undefined)
        values.push('x'.repeat(bound), 'x'.repeat(bound + 1), '😀'.repeat(bound), 'é'.repeat(bound + 1));
    }
    if (node.minLength && node.minLength > 0) values.push('x'.repeat(node.minLength - 1));
  }
  if (node.type === 'array') {
    const item = node.items ? deref(document, node.items) : {};
    const sample = item.type === 'integer' ? 1 : 'x';
    for (const bound of [node.minItems, node.maxItems]) {
      if (bound !== undefined)
        values.push(
          Array.from({ length: bound + 1 }, () => sample),
          Array.from({ length: Math.max(0, bound - 1) }, () => sample),
        );
    }
    if (node.uniqueItems) values.push([sample, sample]);
  }
  return values;
}
