import { Injectable } from '@nestjs/common';
import type { EntityManager, ObjectLiteral } from 'typeorm';
import { FileFieldRegistry, type AttachableEntity } from './file-field.registry.js';
import type { FileFieldDefinition } from './file-field.decorator.js';
import type { FieldSlot } from './file-records.repository.js';
import { FilesError, FilesErrorCode } from './files.errors.js';

/** A file field of one existing entity, resolved from the path of a request. */
export interface ResolvedField {
  owner: AttachableEntity;
  field: FileFieldDefinition;
  slot: FieldSlot;
}

/** Finds the entities files are attached to, and locks them while their files change. */
@Injectable()
export class AttachmentOwners {
  constructor(private readonly registry: FileFieldRegistry) {}

  /** 404 for an unknown attachment type or an unknown field of a known type. */
  resolveField(attachmentType: string, attachmentId: number, fieldName: string): ResolvedField {
    const owner = this.registry.get(attachmentType);
    if (!owner) {
      throw new FilesError(FilesErrorCode.UnknownAttachmentType, `No entity type is called "${attachmentType}".`);
    }
    const field = owner.fields.get(fieldName);
    if (!field) {
      throw new FilesError(FilesErrorCode.UnknownFileField, `"${attachmentType}" has no file field "${fieldName}".`);
    }
    return { owner, field, slot: { attachmentType, attachmentId, field: fieldName } };
  }

  /**
   * 404 when the entity does not exist. With `lock` (inside a transaction on PostgreSQL) the entity's row stays
   * locked until commit, which serializes every change to its files: appends, deletions, reordering.
   */
  async assertExists(manager: EntityManager, owner: AttachableEntity, id: number, lock: boolean): Promise<void> {
    const primary = owner.metadata.primaryColumns[0].propertyName;
    const found = await manager.findOne<ObjectLiteral>(owner.target, {
      where: { [primary]: id },
      select: { [primary]: true },
      ...(lock ? { lock: { mode: 'pessimistic_write' as const } } : {}),
    });
    if (!found) throw new FilesError(FilesErrorCode.EntityNotFound, `${owner.type} ${id} does not exist.`);
  }
}
