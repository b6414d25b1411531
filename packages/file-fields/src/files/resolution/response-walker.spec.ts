import { Readable } from 'node:stream';
import { collectMatches } from './response-walker.js';

class Thing {
  constructor(readonly id: number) {}
}
const isThing = (value: object) => (value instanceof Thing ? value.id : undefined);

describe('collectMatches', () => {
  it('finds a single entity, array items, paginated items and nested entities', () => {
    const a = new Thing(1);
    const b = new Thing(2);
    const c = new Thing(3);
    const d = new Thing(4);
    expect(collectMatches(a, isThing).map(([, id]) => id)).toEqual([1]);
    expect(collectMatches([a, b], isThing).map(([, id]) => id)).toEqual([1, 2]);
    expect(collectMatches({ items: [a, b], total: 2 }, isThing).map(([, id]) => id)).toEqual([1, 2]);
    expect(collectMatches({ order: { lines: [{ product: c }], owner: d } }, isThing).map(([, id]) => id)).toEqual([
      3, 4,
    ]);
  });

  it('visits a shared or cyclic object once', () => {
    const a = new Thing(1);
    const cyclic: Record<string, unknown> = { a, again: a };
    cyclic.self = cyclic;
    expect(collectMatches(cyclic, isThing)).toHaveLength(1);
  });

  it('never looks inside buffers, streams, dates or primitives', () => {
    const stream = Readable.from([]);
    Object.assign(stream, { hidden: new Thing(9) });
    expect(collectMatches({ stream, buf: Buffer.from('x'), at: new Date(), n: 1, s: 'x' }, isThing)).toEqual([]);
    expect(collectMatches(null, isThing)).toEqual([]);
    expect(collectMatches(undefined, isThing)).toEqual([]);
  });

  it('stops at a depth limit instead of recursing without end', () => {
    let deep: Record<string, unknown> = { thing: new Thing(1) };
    for (let i = 0; i < 100; i++) deep = { next: deep };
    expect(collectMatches(deep, isThing)).toEqual([]);
  });
});
