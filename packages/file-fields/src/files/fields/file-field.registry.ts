import { Injectable, type OnModuleInit } from '@nestjs/common';
import { DataSource, type EntityMetadata } from 'typeorm';
import {
  getAttachmentType,
  getCollectionPath,
  getFileFields,
  type FileFieldDefinition,
} from './file-field.decorator.js';

/** An entity type that declares file fields. */
export interface AttachableEntity {
  readonly type: string;
  readonly target: Function;
  readonly metadata: EntityMetadata;
  readonly fields: ReadonlyMap<string, FileFieldDefinition>;
  /** Where the application lists these entities (`@AttachmentType(type, { collectionPath })`). */
  readonly collectionPath?: string;
}

/**
 * Maps each attachment type to its entity and file fields. Built at start from the entities of the
 * DataSource, so an entity with `@FileField()` properties needs no registration beyond being an entity.
 */
@Injectable()
export class FileFieldRegistry implements OnModuleInit {
  private readonly byType = new Map<string, AttachableEntity>();
  private readonly byTarget = new Map<Function, AttachableEntity>();
  /** Each prototype met in responses → its attachable entity or null: the chain is walked once per class. */
  private byPrototype = new WeakMap<object, AttachableEntity | null>();

  constructor(private readonly dataSource: DataSource) {}

  onModuleInit(): void {
    this.byPrototype = new WeakMap();
    for (const metadata of this.dataSource.entityMetadatas) {
      if (typeof metadata.target === 'function') this.register(metadata.target, metadata);
    }
  }

  /** The attachable entity of an attachment type, if any. */
  get(type: string): AttachableEntity | undefined {
    return this.byType.get(type);
  }

  /** The attachable entity whose class is exactly this constructor, or an ancestor of it. */
  forInstance(value: object): AttachableEntity | undefined {
    const prototype = Object.getPrototypeOf(value) as object | null;
    if (prototype === null || prototype === Object.prototype || prototype === Array.prototype) return undefined;
    let found = this.byPrototype.get(prototype);
    if (found === undefined) {
      found = this.lookUp(prototype);
      this.byPrototype.set(prototype, found);
    }
    return found ?? undefined;
  }

  /** The attachable entity of this class, or of an ancestor of it. */
  forClass(target: Function): AttachableEntity | undefined {
    return this.lookUp(target.prototype as object) ?? undefined;
  }

  private lookUp(prototype: object): AttachableEntity | null {
    for (let proto: object | null = prototype; proto && proto !== Object.prototype;) {
      const found = this.byTarget.get(proto.constructor);
      if (found) return found;
      proto = Object.getPrototypeOf(proto) as object | null;
    }
    return null;
  }

  /** Every attachable entity, in the order the DataSource lists them. */
  all(): AttachableEntity[] {
    return [...this.byType.values()];
  }

  get size(): number {
    return this.byType.size;
  }

  private register(target: Function, metadata: EntityMetadata): void {
    const fields = getFileFields(target);
    if (fields.length === 0) return;
    const type = getAttachmentType(target);
    if (this.byType.has(type)) throw new Error(`Two entities declare the attachment type "${type}"`);
    if (metadata.primaryColumns.length !== 1) {
      throw new Error(`Entity ${target.name} has file fields but not exactly one primary column`);
    }
    for (const field of fields) {
      if (metadata.findColumnsWithPropertyPath(field.name).length > 0) {
        throw new Error(`${target.name}.${field.name} is a @FileField() and must not also be a column`);
      }
    }
    const collectionPath = getCollectionPath(target);
    const entry: AttachableEntity = {
      type,
      target,
      metadata,
      fields: new Map(fields.map((f) => [f.name, f])),
      ...(collectionPath === undefined ? {} : { collectionPath }),
    };
    this.byType.set(type, entry);
    this.byTarget.set(target, entry);
  }
}
