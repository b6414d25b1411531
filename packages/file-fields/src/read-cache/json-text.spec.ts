import { jsonText } from './json-text.js';

describe('jsonText', () => {
  const item = (i: number) => ({ id: i, name: `n"${i}`, at: new Date(Date.UTC(2026, 0, i + 1)), skip: undefined });

  it('writes what JSON.stringify writes, for short and long arrays, pages and other values', () => {
    const long = Array.from({ length: 40 }, (_, i) => item(i));
    const values: unknown[] = [
      long,
      [undefined, () => 1, ...long],
      { items: long, total: 40, limit: 50, offset: 0, none: undefined, when: new Date(0) },
      { items: long.slice(0, 3) },
      { toJSON: () => ({ items: long }) },
      item(1),
      'text',
      7,
      null,
    ];
    for (const value of values) expect(jsonText(value)).toBe(JSON.stringify(value));
  });
});
