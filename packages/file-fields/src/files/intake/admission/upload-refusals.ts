import { FilesError, FilesErrorCode } from '../../../errors/files.errors.js';
import { REFUSED_BY_DEFAULT } from '../../fields/accept-policy.js';

const KIB = 1024;
const MIB = 1024 * KIB;

/**
 * Bytes as the administration UI writes a size a person compares with a limit: MiB with one decimal (`12.5 MiB`), or
 * KiB and bytes below one MiB, where one decimal of a MiB would read as nothing.
 */
export function formatSize(bytes: number): string {
  if (bytes >= MIB) return `${(bytes / MIB).toFixed(1)} MiB`;
  if (bytes >= KIB) return `${(bytes / KIB).toFixed(1)} KiB`;
  return `${bytes} B`;
}

/** The file a refusal is about: its size, when known, and its client file name as kept (see sanitizeName). */
export interface RefusedFile {
  name?: string | null;
  size?: number | null;
}

function named(file: RefusedFile): string {
  return file.name ? `"${file.name}"` : 'The file';
}

/**
 * 413 for a file over a field's limit (its maxSize or MAX_FILE_SIZE), in the one wording every upload path answers:
 * `"holiday.png" (12.5 MiB) is larger than this field's maximum of 5.0 MiB.`
 */
export function fileTooLarge(maxSize: number, file: RefusedFile = {}): FilesError {
  const size = typeof file.size === 'number' ? ` (${formatSize(file.size)})` : '';
  return new FilesError(
    FilesErrorCode.FileTooLarge,
    `${named(file)}${size} is larger than this field's maximum of ${formatSize(maxSize)}.`,
  );
}

/**
 * 415 for a type a field does not take, naming what it takes:
 * `"notes.html" is text/html; this field accepts image/*, application/pdf.`
 */
export function typeNotAccepted(
  mimeType: string,
  accept: readonly string[] | undefined,
  file: RefusedFile = {},
): FilesError {
  const accepted =
    accept && accept.length > 0
      ? `this field accepts ${accept.join(', ')}`
      : `this field accepts any type but ${REFUSED_BY_DEFAULT.join(', ')}`;
  return new FilesError(FilesErrorCode.UnsupportedMediaType, `${named(file)} is ${mimeType}; ${accepted}.`);
}
