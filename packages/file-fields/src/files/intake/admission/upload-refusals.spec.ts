import { FilesErrorCode } from '../../../errors/files.errors.js';
import { fileTooLarge, formatSize, typeNotAccepted } from './upload-refusals.js';

describe('upload refusals', () => {
  it('writes sizes as the administration UI does, MiB with one decimal', () => {
    expect(formatSize(13_107_200)).toBe('12.5 MiB');
    expect(formatSize(5 * 1024 * 1024)).toBe('5.0 MiB');
    expect(formatSize(1536)).toBe('1.5 KiB');
    expect(formatSize(900)).toBe('900 B');
  });

  it('413 names the file, its size when known, and the limit', () => {
    const error = fileTooLarge(5 * 1024 * 1024, { name: 'holiday.png', size: 13_107_200 });
    expect(error).toMatchObject({ status: 413, code: FilesErrorCode.FileTooLarge });
    expect(error.message).toBe(`"holiday.png" (12.5 MiB) is larger than this field's maximum of 5.0 MiB.`);
    expect(fileTooLarge(1024 * 1024, { name: 'a.bin' }).message).toBe(
      `"a.bin" is larger than this field's maximum of 1.0 MiB.`,
    );
    expect(fileTooLarge(1024 * 1024).message).toBe(`The file is larger than this field's maximum of 1.0 MiB.`);
  });

  it('415 names the file, its type and what the field accepts', () => {
    const error = typeNotAccepted('text/plain', ['image/*', 'application/pdf'], { name: 'notes.txt' });
    expect(error).toMatchObject({ status: 415, code: FilesErrorCode.UnsupportedMediaType });
    expect(error.message).toBe(`"notes.txt" is text/plain; this field accepts image/*, application/pdf.`);
    expect(typeNotAccepted('text/html', undefined).message).toMatch(
      /^The file is text\/html; this field accepts any type but text\/html, application\/xhtml\+xml, image\/svg\+xml/,
    );
  });
});
