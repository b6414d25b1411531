import { formatBytes } from '../../../components/ui';
import type { FileFieldRules } from '../../../content-types';

const ANY = '*/*';

/**
 * Whether a field takes files of a MIME type, as the service judges it: a refused type only when `accept` names it
 * exactly. The service judges the type it sniffs from the bytes; a file the browser cannot type is left to it.
 */
export function acceptsType(field: FileFieldRules, mimeType: string): boolean {
  const type = mimeType.toLowerCase();
  if (!type) return true;
  if (field.refused?.includes(type)) return field.accept.includes(type);
  if (field.accept.length === 0) return true;
  return field.accept.some(
    (pattern) =>
      pattern === ANY || pattern === type || (pattern.endsWith('/*') && type.startsWith(pattern.slice(0, -1))),
  );
}

/** The `accept` attribute of a file input for the field (undefined: any file). */
export const inputAccept = (field: FileFieldRules) =>
  field.accept.length === 0 || field.accept.includes(ANY) ? undefined : field.accept.join(',');

/** The accepted types as a person reads them. */
export const acceptedTypesText = (field: FileFieldRules) =>
  inputAccept(field) === undefined ? 'Any type' : field.accept.join(', ');

/** How many files the field holds, as a person reads it. */
export function countText(field: FileFieldRules): string {
  if (!field.multi) return 'One file; an upload replaces it';
  return field.max_count === null ? 'No limit' : `Up to ${field.max_count} files`;
}

export const maxSizeText = (field: FileFieldRules) =>
  field.max_size === null ? 'No limit' : `${formatBytes(field.max_size)} per file`;

export interface CheckedFiles {
  /** The files to upload, in the order given. */
  accepted: File[];
  /** Why the others are not uploaded, one sentence each. */
  refusals: string[];
}

/**
 * The files of a drop or a pick that meet the field's rules, and why the rest do not. `held` is how many files
 * the field holds now, uploads under way included.
 */
export function checkFiles(field: FileFieldRules, files: File[], held: number, label = field.name): CheckedFiles {
  if (!field.multi && files.length > 1) {
    return { accepted: [], refusals: [`${label} holds one file: choose just one.`] };
  }
  const refusals: string[] = [];
  const fitting = files.filter((file) => {
    const refusal = refusalOf(field, file, label);
    if (refusal) refusals.push(refusal);
    return !refusal;
  });
  const room = field.multi && field.max_count !== null ? Math.max(0, field.max_count - held) : Infinity;
  const accepted = fitting.slice(0, room);
  const left = fitting.slice(room);
  if (left.length > 0) refusals.push(tooManyText(field, left, room, label));
  return { accepted, refusals };
}

function refusalOf(field: FileFieldRules, file: File, label: string): string | undefined {
  if (!acceptsType(field, file.type)) {
    return `${file.name}: ${label} does not accept ${file.type} files (accepted: ${acceptedTypesText(field)}).`;
  }
  if (field.max_size !== null && file.size > field.max_size) {
    return `${file.name}: ${formatBytes(file.size)} is more than ${label} accepts (${formatBytes(field.max_size)} per file).`;
  }
  return undefined;
}

function tooManyText(field: FileFieldRules, left: File[], room: number, label: string): string {
  const names = left.map((file) => file.name).join(', ');
  const limit = `${label} holds at most ${field.max_count} files`;
  return room === 0
    ? `${limit} and is full: delete a file before adding another (not uploaded: ${names}).`
    : `${limit}: only ${room} more could be added (not uploaded: ${names}).`;
}
