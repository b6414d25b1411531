import { describe, expect, it } from 'vitest';
import type { FileFieldRules } from '../../../content-types';
import { acceptsType, checkFiles, inputAccept } from './file-rules';

const field = (rules: Partial<FileFieldRules>): FileFieldRules => ({
  name: 'gallery',
  multi: true,
  accept: ['*/*'],
  max_size: 1000,
  max_count: null,
  refused: [],
  max_files_per_request: 10,
  max_pixels: null,
  variants: [],
  ...rules,
});
const file = (name: string, type: string, size = 10) => new File([new Uint8Array(size)], name, { type });

describe('acceptsType', () => {
  it('matches exact types and type/* patterns, case-insensitively', () => {
    const images = field({ accept: ['image/*', 'application/pdf'] });
    expect(acceptsType(images, 'image/PNG')).toBe(true);
    expect(acceptsType(images, 'application/pdf')).toBe(true);
    expect(acceptsType(images, 'text/plain')).toBe(false);
  });

  it('refuses a refused type unless accept names it exactly', () => {
    const refused = ['image/svg+xml', 'text/html'];
    expect(acceptsType(field({ accept: ['image/*'], refused }), 'image/svg+xml')).toBe(false);
    expect(acceptsType(field({ accept: ['*/*'], refused }), 'text/html')).toBe(false);
    expect(acceptsType(field({ accept: ['image/svg+xml'], refused }), 'image/svg+xml')).toBe(true);
  });

  it('leaves a file the browser cannot type to the service', () => {
    expect(acceptsType(field({ accept: ['image/*'] }), '')).toBe(true);
  });

  it('gives the file input no accept attribute for any type', () => {
    expect(inputAccept(field({ accept: ['*/*'] }))).toBeUndefined();
    expect(inputAccept(field({ accept: ['image/*', 'application/pdf'] }))).toBe('image/*,application/pdf');
  });
});

describe('checkFiles', () => {
  it('refuses files of the wrong type or too large, and keeps the order of the others', () => {
    const rules = field({ accept: ['image/*'], max_size: 100 });
    const { accepted, refusals } = checkFiles(
      rules,
      [
        file('a.png', 'image/png'),
        file('notes.txt', 'text/plain'),
        file('big.png', 'image/png', 101),
        file('b.png', 'image/png'),
      ],
      0,
    );
    expect(accepted.map((f) => f.name)).toEqual(['a.png', 'b.png']);
    expect(refusals).toEqual([
      'notes.txt: gallery does not accept text/plain files (accepted: image/*).',
      'big.png: 101 B is more than gallery accepts (100 B per file).',
    ]);
  });

  it('takes only as many files as a multi field has room for', () => {
    const rules = field({ max_count: 3 });
    const { accepted, refusals } = checkFiles(rules, [file('a', 'x/y'), file('b', 'x/y'), file('c', 'x/y')], 1);
    expect(accepted.map((f) => f.name)).toEqual(['a', 'b']);
    expect(refusals).toEqual(['gallery holds at most 3 files: only 2 more could be added (not uploaded: c).']);
    expect(checkFiles(rules, [file('d', 'x/y')], 3).refusals[0]).toMatch(/is full: delete a file/);
  });

  it('takes one file for a single field, however many it holds (the upload replaces its file)', () => {
    const cover = field({ name: 'cover', multi: false, max_count: 1 });
    expect(checkFiles(cover, [file('a', 'x/y')], 1)).toEqual({ accepted: [expect.any(File)], refusals: [] });
    expect(checkFiles(cover, [file('a', 'x/y'), file('b', 'x/y')], 0)).toEqual({
      accepted: [],
      refusals: ['cover holds one file: choose just one.'],
    });
  });
});
