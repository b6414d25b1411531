import { Inject, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { FilesError, FilesErrorCode } from '../../../errors/files.errors.js';
import { isAccepted } from '../../fields/accept-policy.js';
import { AttachmentOwners, type ResolvedField } from '../../fields/attachment-owners.js';
import type { FileFieldDefinition } from '../../fields/file-field.decorator.js';
import { fileFieldRules, type FileFieldRules } from '../../fields/file-field-rules.js';
import { FILE_FIELDS_OPTIONS, type ResolvedFileFieldsOptions } from '../../fields/file-fields.options.js';
import { FileRecordsRepository, type FieldSlot } from '../../records/file-records.repository.js';
import { fileTooLarge, typeNotAccepted } from './upload-refusals.js';

/** The field an upload names in its URL: `POST /files/{attachmentType}/{attachmentId}/{fieldName}`. */
export interface UploadTarget {
  attachmentType: string;
  attachmentId: number;
  fieldName: string;
}

/** What a client says of a file before it sends it (resumable and direct uploads); multipart says nothing. */
export interface DeclaredFile {
  /** The file's name, already sanitized, for the refusal to name. */
  name: string;
  /** Its length in bytes; null or absent while unknown. */
  size?: number | null;
  /** Its media type as the client names it (the stored bytes are sniffed again later). */
  type?: string;
}

/** A field that takes the upload, with the rules the bytes will meet. */
export interface AdmittedField extends ResolvedField {
  rules: FileFieldRules;
}

/**
 * The first step of every upload, whatever its transport: the field must exist on an existing entity (404), and
 * what the client declared must fit it (413 for a length over the field's limit, 415 for a type it refuses), before
 * a byte is read. The room a field has left is checked here too, for the transports that store at once.
 */
@Injectable()
export class FieldAdmission {
  constructor(
    @Inject(FILE_FIELDS_OPTIONS) private readonly options: ResolvedFileFieldsOptions,
    private readonly owners: AttachmentOwners,
    private readonly fileRecords: FileRecordsRepository,
  ) {}

  async admit(target: UploadTarget, declared?: DeclaredFile): Promise<AdmittedField> {
    const resolved = this.resolve(target);
    await this.owners.assertExists(resolved.owner, target.attachmentId);
    const rules = fileFieldRules(resolved.field, this.options.maxFileSize);
    if (declared) assertDeclaredFits(declared, rules.maxSize, resolved.field);
    return { ...resolved, rules };
  }

  /** The field of a pending upload's row (404 once its type or field is gone from the application). */
  resolve({ attachmentType, attachmentId, fieldName }: UploadTarget): ResolvedField {
    return this.owners.resolveField(attachmentType, attachmentId, fieldName);
  }

  /** 409 when a multi field with a maxCount cannot take `adding` more files (in `manager`'s transaction if given). */
  async assertRoomFor(
    field: FileFieldDefinition,
    slot: FieldSlot,
    adding: number,
    manager?: EntityManager,
  ): Promise<void> {
    if (!field.multi || field.maxCount === undefined) return;
    const count = await this.fileRecords.countInField(slot, manager);
    if (count + adding > field.maxCount) {
      throw new FilesError(
        FilesErrorCode.FieldFull,
        `"${slot.field}" holds ${count} of at most ${field.maxCount} files; ${adding} more do not fit.`,
      );
    }
  }
}

/** 413 for a declared length over `maxSize`, 415 for a declared type the field refuses. */
function assertDeclaredFits(declared: DeclaredFile, maxSize: number, field: FileFieldDefinition): void {
  const { name, size, type } = declared;
  if (size !== undefined && size !== null && size > maxSize) throw fileTooLarge(maxSize, { name, size });
  if (type !== undefined && !isAccepted(type, field.accept)) throw typeNotAccepted(type, field.accept, { name });
}
