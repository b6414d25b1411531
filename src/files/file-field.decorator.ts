import 'reflect-metadata';

/** Options of {@link FileField}. */
export interface FileFieldOptions {
  /** true: the property holds an ordered array of files; false (default): one file or null. */
  multi?: boolean;
}

/** One declared file field of an entity class. */
export interface FileFieldDefinition {
  readonly name: string;
  readonly multi: boolean;
}

export const FILE_FIELDS_METADATA = Symbol('file-fields:fields');
export const ATTACHMENT_TYPE_METADATA = Symbol('file-fields:attachment-type');

const FIELD_NAME = /^[A-Za-z][A-Za-z0-9_]{0,63}$/;
const TYPE_NAME = /^[a-z][a-z0-9_-]{0,63}$/;

/**
 * Marks an entity property as a file field. The property is not a database column: it is filled on every
 * response by the file resolution interceptor, with one file record (or null), or, with `multi: true`,
 * an array of file records ordered by `sort_order` (or []).
 *
 * @example
 * ```ts
 * @Entity() class Product {
 *   @PrimaryGeneratedColumn() id!: number;
 *   @FileField() cover?: FileRecordDto | null;
 *   @FileField({ multi: true }) gallery?: FileRecordDto[];
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
    const field: FileFieldDefinition = { name: property, multi: options.multi ?? false };
    Reflect.defineMetadata(FILE_FIELDS_METADATA, [...own.filter((f) => f.name !== property), field], target);
  };
}

/**
 * Names the attachment type of an entity class (the `{attachmentType}` of upload URLs and the
 * `attachment_type` of its file records). Without it the type is the class name in lower case.
 */
export function AttachmentType(name: string): ClassDecorator {
  if (!TYPE_NAME.test(name)) throw new Error(`@AttachmentType(): invalid name ${JSON.stringify(name)}`);
  return (target) => Reflect.defineMetadata(ATTACHMENT_TYPE_METADATA, name, target);
}

/** The file fields of a class, its ancestors' included (a subclass may redeclare a field). */
export function getFileFields(target: Function): FileFieldDefinition[] {
  const fields = new Map<string, FileFieldDefinition>();
  const chain: Function[] = [];
  for (let current = target; current && current !== Function.prototype; current = Object.getPrototypeOf(current) as Function) {
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
