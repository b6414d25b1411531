import { sanitizeName } from './file-name.js';

describe('sanitizeName', () => {
  it('keeps non-ASCII names as they are', () => {
    expect(sanitizeName('café 😀.txt')).toBe('café 😀.txt');
    expect(sanitizeName('תמונה.png')).toBe('תמונה.png');
  });

  it.each([
    ['evil\u202Egnp.exe', 'evilgnp.exe'],
    ['a\u202A\u202B\u202C\u202Db.txt', 'ab.txt'],
    ['\u2066x\u2067y\u2068z\u2069.pdf', 'xyz.pdf'],
    ['l\u200Er\u200Fa\u061C.txt', 'lra.txt'],
  ])('strips bidirectional formatting characters (case %#)', (name, expected) => {
    expect(sanitizeName(name)).toBe(expected);
  });

  it('drops directories and control characters, and falls back to "file"', () => {
    expect(sanitizeName('../../etc/pass\u0000wd')).toBe('passwd');
    expect(sanitizeName('C:\\Users\\x\\a\u0085b.txt')).toBe('ab.txt');
    expect(sanitizeName('\u202E')).toBe('file');
    expect(sanitizeName(undefined)).toBe('file');
  });

  it('keeps at most 255 characters without splitting one', () => {
    const name = sanitizeName(`${'a'.repeat(254)}😀😀`);
    expect([...name]).toHaveLength(255);
    expect(name.endsWith('😀')).toBe(true);
  });
});
