import { deepFreeze } from '../deep-freeze.js';
import { holdsKeptJsonText, keepJsonText, toJson } from './json-text.js';

/**
 * toJson of a body marked as holding kept text: the path that looks for it, which must write what JSON.stringify
 * does.
 */
function marked(value: unknown): string | undefined {
  if (typeof value === 'object' && value !== null) holdsKeptJsonText(value);
  return toJson(value);
}

class Entity {
  id = 7;
  createdAt = new Date(Date.UTC(2026, 0, 31, 12));
  cover: unknown = null;
}
Object.defineProperty(Entity.prototype, 'inherited', { value: 'not written', enumerable: true });

class WithToJson {
  constructor(private readonly inner: unknown) {}
  toJSON(key: string) {
    return { key, inner: this.inner };
  }
}

/** Values of every kind JSON.stringify treats in its own way. */
const cases: Array<[string, unknown]> = [
  ['a string with escapes', 'quote " backslash \\ newline \n tab \t nul \u0000 emoji 😀 lone \ud800'],
  ['numbers', [0, -0, 1.5, -2e-7, 1e21, Number.MAX_SAFE_INTEGER, NaN, Infinity, -Infinity]],
  ['booleans and null', [true, false, null]],
  ['undefined, functions and symbols', { a: undefined, b: () => 1, c: Symbol('s'), d: 1, e: [undefined, () => 1] }],
  [
    'symbol keys and non-enumerable properties',
    Object.defineProperty({ [Symbol('k')]: 1, v: 2 }, 'hidden', { value: 3 }),
  ],
  ['integer-like keys first', { b: 1, 2: 'two', a: 3, 1: 'one' }],
  ['a sparse array', [1, , 3]], // eslint-disable-line no-sparse-arrays
  ['an array with named properties', Object.assign([1, 2], { named: 3 })],
  ['dates, one invalid', { at: new Date(Date.UTC(2026, 10, 27)), bad: new Date(NaN) }],
  ['a Buffer', Buffer.from('hi')],
  ['a typed array', new Uint8Array([1, 2, 3])],
  ['a Map and a Set', { map: new Map([[1, 2]]), set: new Set([1]) }],
  ['boxed primitives', [Object(1), Object('s'), Object(false)]],
  ['toJSON with its key', { outer: new WithToJson([new WithToJson('deep')]), list: [new WithToJson(1)] }],
  ['a toJSON giving undefined', { gone: { toJSON: () => undefined }, kept: 1 }],
  ['getters', { get now() { return 'got'; } }], // prettier-ignore
  ['a class instance', new Entity()],
  ['an object without prototype', Object.assign(Object.create(null) as object, { x: 1 })],
  ['nested empty containers', { a: {}, b: [], c: [{}, [[]]] }],
  ['top-level primitives', 'text'],
];

describe('toJson', () => {
  it.each(cases)('writes %s as JSON.stringify does', (_name, value) => {
    expect(marked(value)).toBe(JSON.stringify(value));
  });

  it('gives undefined where JSON.stringify does', () => {
    expect(toJson(undefined)).toBeUndefined();
    expect(toJson(() => 1)).toBeUndefined();
    expect(toJson(Symbol('s'))).toBeUndefined();
  });

  it('writes random nested values as JSON.stringify does', () => {
    let seed = 42;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const make = (depth: number): unknown => {
      const pick = Math.floor(random() * (depth > 3 ? 6 : 9));
      if (pick === 0) return null;
      if (pick === 1) return random() * 1e6 - 5e5;
      if (pick === 2) return String.fromCharCode(...Array.from({ length: 8 }, () => Math.floor(random() * 0x3000)));
      if (pick === 3) return random() < 0.5;
      if (pick === 4) return undefined;
      if (pick === 5) return new Date(Math.floor(random() * 2e12));
      if (pick === 6) return Array.from({ length: Math.floor(random() * 4) }, () => make(depth + 1));
      const entries = Array.from({ length: Math.floor(random() * 5) }, (_, i) => [`k${i}`, make(depth + 1)]);
      return pick === 7 ? Object.fromEntries(entries) : deepFreeze(Object.fromEntries(entries));
    };
    for (let i = 0; i < 500; i++) {
      const value = make(0);
      expect(marked(value)).toBe(JSON.stringify(value));
    }
  });

  it('throws where JSON.stringify throws: a cycle, a BigInt', () => {
    const cycle: Record<string, unknown> = { a: 1 };
    cycle.self = { back: cycle };
    expect(() => marked(cycle)).toThrow(TypeError);
    expect(() => marked({ big: 1n })).toThrow(TypeError);
    // The same object twice, side by side, is no cycle.
    const shared = { x: 1 };
    expect(marked([shared, { shared }])).toBe('[{"x":1},{"shared":{"x":1}}]');
  });

  it('writes the text kept for a frozen value wherever it meets that object', () => {
    const record = deepFreeze({ id: 1, url: 'https://files.example/1?signature=a%2Fb', variants: { thumb: null } });
    keepJsonText(record);
    const entity = Object.assign(new Entity(), { cover: record, gallery: [record, record] });

    expect(marked({ items: [entity], total: 1 })).toBe(JSON.stringify({ items: [entity], total: 1 }));
    // An equal object that is not the kept one is written as itself.
    expect(marked({ copy: { ...record } })).toBe(JSON.stringify({ copy: record }));
  });

  it('uses the kept text, not the value, for a kept object', () => {
    // Only frozen plain data may be kept, so the two cannot differ; here a getter shows which one is written.
    let calls = 0;
    const value = Object.freeze({
      get count() {
        return ++calls;
      },
    });
    keepJsonText(value);
    expect(marked([value, value])).toBe('[{"count":1},{"count":1}]');
    // A body not marked as holding kept text is written by JSON.stringify alone.
    expect(toJson([value, value])).toBe('[{"count":2},{"count":3}]');
  });

  it('refuses to keep the text of a value that could change', () => {
    expect(() => keepJsonText({ id: 1 })).toThrow(TypeError);
  });
});
