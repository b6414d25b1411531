import { Injectable } from '@nestjs/common';
import type { Transaction } from '../../database/unit-of-work.js';
import { AttachmentOwnersRepository } from './attachment-owners.repository.js';
import { FileFieldRegistry, type AttachableEntity } from './file-field.registry.js';
import type { FileFieldDefinition } from './file-field.decorator.js';
import type { FieldSlot } from '../records/file-records.repository.js';
import { FilesError, FilesErrorCode } from '../../errors/files.errors.js';

/** A file field of one existing entity, resolved from the path of a request. */
export interface ResolvedField {
  owner: AttachableEntity;
  field: FileFieldDefinition;
  slot: FieldSlot;
}

/** Finds the entities files are attached to, and locks them while their files change. */
@Injectable()
export class AttachmentOwners {
  constructor(
    private readonly registry: FileFieldRegistry,
    private readonly rows: AttachmentOwnersRepository,
  ) {}

  /** 404 for an unknown attachment type or an unknown field of a known type. */
  resolveField(attachmentType: string, attachmentId: number, fieldName: string): ResolvedField {
    const owner = this.registry.get(attachmentType);
    if (!owner) throw unknownAttachmentType(attachmentType);
    const field = owner.fields.get(fieldName);
    if (!field) {
      throw new FilesError(FilesErrorCode.UnknownFileField, `"${attachmentType}" has no file field "${fieldName}".`);
    }
    return { owner, field, slot: { attachmentType, attachmentId, field: fieldName } };
  }

  /** 404 when the entity does not exist. */
  async assertExists(owner: AttachableEntity, id: number): Promise<void> {
    if (!(await this.rows.exists(owner, id))) throw entityNotFound(owner, id);
  }

  /** 404 when the entity does not exist; otherwise its files change only in this transaction until it ends. */
  async lockExisting(tx: Transaction, owner: AttachableEntity, id: number): Promise<void> {
    if (!(await this.rows.lock(tx, owner, id))) throw entityNotFound(owner, id);
  }

  /** Serializes changes to the entity's files like lockExisting, for a change that holds even if it is gone. */
  async lock(tx: Transaction, owner: AttachableEntity, id: number): Promise<void> {
    await this.rows.lock(tx, owner, id);
  }
}

/** 404 for a type no entity has. */
export function unknownAttachmentType(attachmentType: string): FilesError {
  return new FilesError(FilesErrorCode.UnknownAttachmentType, `No entity type is called "${attachmentType}".`);
}

function entityNotFound(owner: AttachableEntity, id: number): FilesError {
  return new FilesError(FilesErrorCode.EntityNotFound, `${owner.type} ${id} does not exist.`);
}
