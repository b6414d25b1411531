import {
  advance,
  baseAt,
  droppedTails,
  MIN_PART_BYTES,
  remainderIsPart,
  type S3UploadState,
  type UploadedPart,
} from './upload-state.js';

const MiB = 1024 * 1024;
const part = (number: number, size: number): UploadedPart => ({ number, etag: `"e${number}"`, size });

describe('S3 resumable upload state', () => {
  it('starts from nothing at offset 0 and counts the parts and the tail it stored', () => {
    const base = baseAt(null, 0)!;
    expect(base).toEqual({ uploadId: null, parts: [], tail: null, at: 0 });
    const next = advance(base, 'u1', [part(1, 16 * MiB), part(2, 6 * MiB)], { name: 't1', size: 3 });
    expect(next).toEqual({
      uploadId: 'u1',
      parts: [part(1, 16 * MiB), part(2, 6 * MiB)],
      tail: { name: 't1', size: 3 },
      at: 22 * MiB + 3,
      before: { at: 0, parts: 0, tail: null },
    });
    expect(baseAt(next, 22 * MiB + 3)).toEqual({ uploadId: 'u1', parts: next.parts, tail: next.tail, at: next.at });
  });

  it('goes back to the state before the last request when the offset is still there, dropping its parts', () => {
    const first = advance(baseAt(null, 0)!, 'u1', [part(1, 6 * MiB)], { name: 't1', size: MiB });
    const second = advance(baseAt(first, 7 * MiB)!, 'u1', [part(2, 5 * MiB)], { name: 't2', size: 10 });
    const back = baseAt(second, 7 * MiB)!;
    expect(back).toEqual({ uploadId: 'u1', parts: [part(1, 6 * MiB)], tail: { name: 't1', size: MiB }, at: 7 * MiB });
    // Sent again (the tail read back, then the body), part 2 takes the number of the one kept out.
    const again = advance(back, 'u1', [part(2, 6 * MiB)], null);
    expect(again.at).toBe(12 * MiB);
    expect(again.before).toEqual({ at: 7 * MiB, parts: 1, tail: { name: 't1', size: MiB } });
  });

  it('knows no other offset but 0, where it starts over with the same S3 upload', () => {
    const state = advance(baseAt(null, 0)!, 'u1', [part(1, 6 * MiB)], { name: 't1', size: 5 });
    expect(baseAt(state, 6 * MiB)).toBeUndefined();
    expect(baseAt(state, 0)).toEqual({ uploadId: 'u1', parts: [], tail: null, at: 0 });
  });

  it('lets go of the tails that neither the new state nor the one before it refers to', () => {
    const t = (name: string) => ({ name, size: 1 });
    const old: S3UploadState = {
      uploadId: null,
      parts: [],
      tail: t('b'),
      at: 2,
      before: { at: 1, parts: 0, tail: t('a') },
    };
    expect(droppedTails(old, advance(baseAt(old, 2)!, null, [], t('c')))).toEqual(['a']);
    // Back to 'a' and on: 'b' (kept out) goes, 'a' stays as the state before.
    expect(droppedTails(old, advance(baseAt(old, 1)!, null, [], t('d')))).toEqual(['b']);
    expect(droppedTails(null, advance(baseAt(null, 0)!, null, [], t('a')))).toEqual([]);
  });

  it('makes a part of last bytes S3 takes as one, and a tail of shorter ones', () => {
    expect(remainderIsPart(MIN_PART_BYTES)).toBe(true);
    expect(remainderIsPart(MIN_PART_BYTES - 1)).toBe(false);
  });
});
