import { assertJsonDepth } from './json-depth.js';

const nested = (levels: number) => Buffer.from('['.repeat(levels) + ']'.repeat(levels));

describe('assertJsonDepth', () => {
  it('accepts JSON up to the limit', () => {
    expect(() => assertJsonDepth(nested(64))).not.toThrow();
    expect(() => assertJsonDepth(Buffer.from('{"a":{"b":[1,{"c":2}]}}'), 4)).not.toThrow();
  });

  it('refuses deeper nesting with a 400 a client may see', () => {
    expect(() => assertJsonDepth(nested(65))).toThrow(expect.objectContaining({ status: 400, expose: true }));
    expect(() => assertJsonDepth(Buffer.from('{"a":{"b":[1]}}'), 2)).toThrow(/deeper than 2 levels/);
  });

  it('ignores brackets inside strings, escaped quotes included', () => {
    expect(() => assertJsonDepth(Buffer.from(JSON.stringify({ a: '[[[[{{{{', b: 'say \\"[[[' })), 1)).not.toThrow();
    expect(() => assertJsonDepth(Buffer.from('["\\\\", [[]]]'), 2)).toThrow();
  });
});
