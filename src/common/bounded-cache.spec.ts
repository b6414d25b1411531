import { BoundedCache } from './bounded-cache.js';

describe('BoundedCache', () => {
  it('answers until the entry expires, then forgets it', () => {
    const cache = new BoundedCache<number>(10);
    cache.set('a', 1, 1_000);
    expect(cache.get('a', 999)).toBe(1);
    expect(cache.get('a', 1_000)).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('makes room by dropping the oldest entry when full', () => {
    const cache = new BoundedCache<number>(2);
    cache.set('a', 1, 10);
    cache.set('b', 2, 10);
    cache.set('a', 3, 10); // a is now the newest
    cache.set('c', 4, 10);
    expect(cache.get('b', 0)).toBeUndefined();
    expect(cache.get('a', 0)).toBe(3);
    expect(cache.get('c', 0)).toBe(4);
    expect(cache.size).toBe(2);
  });

  it('deletes by key, by value and all at once', () => {
    const cache = new BoundedCache<number>(10);
    cache.set('a', 1, 10);
    cache.set('b', 2, 10);
    cache.set('c', 3, 10);
    cache.delete('a');
    cache.deleteWhere((value) => value === 2);
    expect([cache.get('a', 0), cache.get('b', 0), cache.get('c', 0)]).toEqual([undefined, undefined, 3]);
    cache.clear();
    expect(cache.size).toBe(0);
  });
});
