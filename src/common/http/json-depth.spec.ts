import { assertJsonBody } from './json-depth.js';

const nested = (levels: number) => Buffer.from('['.repeat(levels) + ']'.repeat(levels));

describe('assertJsonBody', () => {
  it('accepts JSON up to the limit', () => {
    expect(() => assertJsonBody(nested(64))).not.toThrow();
    expect(() => assertJsonBody(Buffer.from('{"a":{"b":[1,{"c":2}]}}'), 4)).not.toThrow();
  });

  it('refuses deeper nesting with a 400 a client may see', () => {
    expect(() => assertJsonBody(nested(65))).toThrow(expect.objectContaining({ status: 400, expose: true }));
    expect(() => assertJsonBody(Buffer.from('{"a":{"b":[1]}}'), 2)).toThrow(/deeper than 2 levels/);
  });

  it('ignores brackets inside strings, escaped quotes included', () => {
    expect(() => assertJsonBody(Buffer.from(JSON.stringify({ a: '[[[[{{{{', b: 'say \\"[[[' })), 1)).not.toThrow();
    expect(() => assertJsonBody(Buffer.from('["\\\\", [[]]]'), 2)).toThrow();
  });

  it('refuses U+0000 in any string, a name or a nested value, with a 400', () => {
    for (const value of [{ a: '\u0000' }, { ['k\u0000']: 1 }, { a: [{ b: ['x\u0000y'] }] }, 'x\u0000']) {
      expect(() => assertJsonBody(Buffer.from(JSON.stringify(value)))).toThrow(
        expect.objectContaining({ status: 400, expose: true, message: expect.stringMatching(/U\+0000/) }),
      );
    }
  });

  it('takes an escaped backslash followed by "u0000", and other escapes, for what they are', () => {
    for (const value of [{ a: '\\u0000' }, { a: '\\\\u0000' }, { a: '\u0001 \u1000 \\ "' }, { a: 'u0000' }]) {
      expect(() => assertJsonBody(Buffer.from(JSON.stringify(value)))).not.toThrow();
    }
  });
});
