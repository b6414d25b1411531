import { countOf } from './plural.js';

describe('countOf', () => {
  it('says "no", one and many as a person would', () => {
    expect([0, 1, 2, 1200].map((n) => countOf(n, 'user'))).toEqual(['no users', '1 user', '2 users', '1,200 users']);
    expect(countOf(1, 'entry', 'entries')).toBe('1 entry');
    expect(countOf(3, 'entry', 'entries')).toBe('3 entries');
  });
});
