import { parseDuration, parseDurationList } from './duration.js';

describe('durations', () => {
  it.each([
    ['500ms', 500],
    ['15s', 15_000],
    ['5m', 300_000],
    ['2h', 7_200_000],
    ['1d', 86_400_000],
    [' 3 s ', 3_000],
  ])('%p is %p ms', (text, ms) => expect(parseDuration(text)).toBe(ms));

  it.each(['', '5', 's', '1.5s', '-1s', '5w', '5 minutes'])('%p is malformed', (text) =>
    expect(parseDuration(text)).toBeUndefined(),
  );

  it('parses lists and refuses a list with one bad member', () => {
    expect(parseDurationList('5s,5m,30m')).toEqual([5_000, 300_000, 1_800_000]);
    expect(parseDurationList('5s,,5m')).toBeUndefined();
  });
});
