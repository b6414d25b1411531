import type { FileFieldDefinition } from './file-field.decorator.js';
import { REFUSED_BY_DEFAULT } from './accept-policy.js';
import { imageRulesOf } from '../images/options/image-options.js';

/** How many files one request may append to a multi field. */
export const MAX_FILES_PER_REQUEST = 20;

/** A field's rules as an upload enforces them, with the application's limits applied. */
export interface FileFieldRules {
  multi: boolean;
  /** MIME types and patterns accepted; the pattern for any type when the field names none. */
  accept: string[];
  /** Types refused even where a pattern of `accept` matches: HTML, SVG, XML, executables not named exactly. */
  refused: string[];
  /** Largest file in bytes: the field's maxSize or the application's maximum, whichever is lower. */
  maxSize: number;
  /** Most files the field holds (1 for a single field); null: no limit. */
  maxCount: number | null;
  /** Most files one upload request may carry. */
  maxFilesPerRequest: number;
  /** Most pixels of an image the field stores; null when the field does not look at images. */
  maxPixels: number | null;
  /** The names of the field's image variants. */
  variants: string[];
}

/** The rules of `field` under the application's largest file size. */
export function fileFieldRules(field: FileFieldDefinition, maxFileSize: number): FileFieldRules {
  const accept = field.accept && field.accept.length > 0 ? [...field.accept] : ['*/*'];
  return {
    multi: field.multi,
    accept,
    refused: REFUSED_BY_DEFAULT.filter((type) => !accept.includes(type)),
    maxSize: Math.min(field.maxSize ?? Infinity, maxFileSize),
    maxCount: field.multi ? (field.maxCount ?? null) : 1,
    maxFilesPerRequest: field.multi ? Math.min(MAX_FILES_PER_REQUEST, field.maxCount ?? Infinity) : 1,
    maxPixels: imageRulesOf(field)?.maxPixels ?? null,
    variants: Object.keys(field.variants ?? {}),
  };
}
