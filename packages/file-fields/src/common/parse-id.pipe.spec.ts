import { InvalidIdError, ParseIdPipe } from './parse-id.pipe.js';

describe('ParseIdPipe', () => {
  const pipe = new ParseIdPipe();
  const meta = { type: 'param' as const, data: 'id' };

  it.each([
    ['1', 1],
    ['42', 42],
    [7, 7],
    ['2147483647', 2147483647],
  ])('accepts %p', (value, expected) => {
    expect(pipe.transform(value, meta)).toBe(expected);
  });

  it.each(['0', '-1', '1.5', '01', 'abc', '', ' 1', '1e3', '2147483648', NaN])('refuses %p with a 400', (value) => {
    expect(() => pipe.transform(value as string, meta)).toThrow(InvalidIdError);
  });
});
