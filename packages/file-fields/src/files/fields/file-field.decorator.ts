import 'reflect-metadata';
import { ApiProperty } from '@nestjs/swagger';
import { FileRecordDto } from '../records/file-record.dto.js';
import {
  assertValidImageOptions,
  describeVariants,
  type ImageVariantOptions,
} from '../images/options/image-options.js';

/** Options of {@link FileField}. */
export interface FileFieldOptions {
  /** true: the property holds an ordered array of files; false (default): one file or null. */
  multi?: boolean;
  /** Largest accepted file in bytes; the global MAX_FILE_SIZE still applies when it is lower. */
  maxSize?: number;
  /** Most files a multi field may hold. */
  maxCount?: number;
  /**
   * MIME types or patterns (`image/*`) accepted, judged on the type sniffed from the bytes. Without it any type
   * is accepted except HTML, SVG and executables, which a field accepts only by naming them exactly.
   */
  accept?: readonly string[];
  /**
   * Image variants by name (lower case), made with sharp from every JPEG, PNG, WebP, GIF, AVIF or TIFF of the field
   * and stored next to it, e.g. `{ thumb: { width: 200, height: 200, fit: 'cover' } }`. Such a field refuses images
   * it cannot decode (415) or with more than `maxPixels` pixels (413).
   */
  variants?: Readonly<Record<string, ImageVariantOptions>>;
  /** Most pixels of an image (width × height) the field stores; default 100000000 (10000²) with variants. */
  maxPixels?: number;
  /** What people call the field (`Cover image`): its `title` in the OpenAPI document, the label clients show. */
  title?: string;
  /** What the field is for, in a sentence: put before the rules in its OpenAPI `description`. */
  description?: string;
}

/** One declared file field of an entity class. */
export interface FileFieldDefinition {
  readonly name: string;
  readonly multi: boolean;
  readonly maxSize?: number;
  readonly maxCount?: number;
  readonly accept?: readonly string[];
  readonly variants?: Readonly<Record<string, ImageVariantOptions>>;
  readonly maxPixels?: number;
  readonly title?: string;
  readonly description?: string;
}

const FILE_FIELDS_METADATA = Symbol('file-fields:fields');
const ATTACHMENT_TYPE_METADATA = Symbol('file-fields:attachment-type');
const COLLECTION_PATH_METADATA = Symbol('file-fields:collection-path');

const FIELD_NAME = /^[A-Za-z][A-Za-z0-9_]{0,63}$/;
const TYPE_NAME = /^[a-z][a-z0-9_-]{0,63}$/;
/** `/products`, `/api/catalog/items`: absolute, no dot segments, nothing to escape. */
const COLLECTION_PATH = /^(\/(?!\.{1,2}(\/|$))[A-Za-z0-9._~-]+)+$/;

/**
 * Marks an entity property as a file field. The property is not a database column: it is filled on every
 * response by the file resolution interceptor, with one file record (or null), or, with `multi: true`,
 * an array of file records ordered by `sort_order` (or []). The property documents itself in the OpenAPI schema of
 * the entity: a nullable `FileRecord`, or an array of `FileRecord`. With `variants`, each record also lists its image
 * variants (`variants: { thumb: { url, width, height, size, mime_type } | null }`).
 *
 * @example
 * ```ts
 * @Entity() class Product {
 *   @PrimaryGeneratedColumn() id!: number;
 *   @FileField() cover?: FileRecordDto | null;
 *   @FileField({ multi: true }) gallery?: FileRecordDto[];
 *   @FileField({ accept: ['image/*'], variants: { thumb: { width: 200, height: 200, fit: 'cover' } } })
 *   photo?: FileRecordDto | null;
 * }
 * ```
 */
export function FileField(options: FileFieldOptions = {}): PropertyDecorator {
  return (prototype, property) => {
    if (typeof property !== 'string' || !FIELD_NAME.test(property)) {
      throw new Error(`@FileField() needs a plain property name, got ${String(property)}`);
    }
    const target = prototype.constructor;
    const own = (Reflect.getOwnMetadata(FILE_FIELDS_METADATA, target) ?? []) as FileFieldDefinition[];
    assertValidOptions(property, options);
    const field: FileFieldDefinition = { ...options, name: property, multi: options.multi ?? false };
    Reflect.defineMetadata(FILE_FIELDS_METADATA, [...own.filter((f) => f.name !== property), field], target);
    const description = [field.description, describeFileField(field)].filter(Boolean).join(' ');
    const { title } = field;
    const documented = field.multi
      ? ApiProperty({ type: FileRecordDto, isArray: true, title, description })
      : ApiProperty({ type: FileRecordDto, nullable: true, title, description });
    documented(prototype, property);
  };
}

/** A file field's rules in one sentence, e.g. `File field (multi, ordered by sort_order): at most 30 files; …`. */
function describeFileField(field: FileFieldDefinition): string {
  const rules = [
    field.maxCount !== undefined ? `at most ${field.maxCount} files` : undefined,
    field.maxSize !== undefined ? `each at most ${field.maxSize} bytes` : undefined,
    field.accept ? `accepts ${field.accept.join(', ')}` : undefined,
    field.maxPixels !== undefined ? `images of at most ${field.maxPixels} pixels` : undefined,
    field.variants ? `image variants ${describeVariants(field.variants)} (see FileRecord.variants)` : undefined,
  ].filter((rule) => rule !== undefined);
  const kind = field.multi
    ? 'File field (multi, ordered by sort_order; [] when empty)'
    : 'File field (null when empty)';
  return rules.length > 0 ? `${kind}: ${rules.join('; ')}.` : `${kind}.`;
}

function assertValidOptions(property: string, options: FileFieldOptions): void {
  const { multi, maxSize, maxCount, accept } = options;
  const positive = (n: number | undefined) => n === undefined || (Number.isSafeInteger(n) && n > 0);
  if (!positive(maxSize)) throw new Error(`@FileField() ${property}: maxSize must be a positive integer`);
  if (!positive(maxCount)) throw new Error(`@FileField() ${property}: maxCount must be a positive integer`);
  if (maxCount !== undefined && !multi) throw new Error(`@FileField() ${property}: maxCount needs multi: true`);
  if (accept?.some((type) => !/^[a-z0-9.+-]+\/([a-z0-9.+-]+|\*)$/.test(type) && type !== '*/*')) {
    throw new Error(`@FileField() ${property}: accept holds an invalid MIME type or pattern`);
  }
  assertValidImageOptions(property, options);
}

/** Options of {@link AttachmentType}. */
export interface AttachmentTypeOptions {
  /**
   * Where the application lists the entities of this type (`/products`), for clients that browse them: shown by
   * `GET /files/fields`. The file-field framework serves no such route itself.
   */
  collectionPath?: string;
}

/**
 * Names the attachment type of an entity class (the `{attachmentType}` of upload URLs and the
 * `attachment_type` of its file records). Without it the type is the class name in lower case.
 */
export function AttachmentType(name: string, options: AttachmentTypeOptions = {}): ClassDecorator {
  if (!TYPE_NAME.test(name)) throw new Error(`@AttachmentType(): invalid name ${JSON.stringify(name)}`);
  const { collectionPath } = options;
  if (collectionPath !== undefined && !COLLECTION_PATH.test(collectionPath)) {
    throw new Error(`@AttachmentType(): collectionPath must be a path like /products, got ${collectionPath}`);
  }
  return (target) => {
    Reflect.defineMetadata(ATTACHMENT_TYPE_METADATA, name, target);
    if (collectionPath !== undefined) Reflect.defineMetadata(COLLECTION_PATH_METADATA, collectionPath, target);
  };
}

/** The file fields of a class, its ancestors' included (a subclass may redeclare a field). */
export function getFileFields(target: Function): FileFieldDefinition[] {
  const fields = new Map<string, FileFieldDefinition>();
  const chain: Function[] = [];
  for (
    let current = target;
    current && current !== Function.prototype;
    current = Object.getPrototypeOf(current) as Function
  ) {
    chain.unshift(current);
  }
  for (const cls of chain) {
    for (const field of (Reflect.getOwnMetadata(FILE_FIELDS_METADATA, cls) ?? []) as FileFieldDefinition[]) {
      fields.set(field.name, field);
    }
  }
  return [...fields.values()];
}

/** The attachment type of a class: its {@link AttachmentType} or its name in lower case. */
export function getAttachmentType(target: Function): string {
  return (Reflect.getMetadata(ATTACHMENT_TYPE_METADATA, target) as string | undefined) ?? target.name.toLowerCase();
}

/** Where the application lists the entities of a class, if its {@link AttachmentType} says. */
export function getCollectionPath(target: Function): string | undefined {
  return Reflect.getMetadata(COLLECTION_PATH_METADATA, target) as string | undefined;
}
