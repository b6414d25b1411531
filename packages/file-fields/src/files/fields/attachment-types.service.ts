import { Inject, Injectable } from '@nestjs/common';
import { PermissionSource, type DeclaresPermissions, type PermissionUse } from '../../auth/permission-source.js';
import { grants } from '../../auth/permissions.js';
import type { Principal } from '../../auth/principal.js';
import { FileFieldRegistry } from './file-field.registry.js';
import { fileFieldRules, type FileFieldRules } from './file-field-rules.js';
import { FILE_FIELDS_OPTIONS, type ResolvedFileFieldsOptions } from './file-fields.options.js';

/** An attachable entity type as clients see it: where it is listed, and its fields' rules. */
export interface AttachmentTypeView {
  type: string;
  collectionPath?: string;
  fields: Array<{ name: string; rules: FileFieldRules }>;
}

/**
 * The attachable entity types, for clients that browse entities and check files before uploading them. They are also
 * the permissions the file routes derive from a path or a record (`<type>:read`, `<type>:write`), which the
 * application's permission catalog learns from here.
 */
@Injectable()
@PermissionSource()
export class AttachmentTypes implements DeclaresPermissions {
  constructor(
    private readonly registry: FileFieldRegistry,
    @Inject(FILE_FIELDS_OPTIONS) private readonly options: ResolvedFileFieldsOptions,
  ) {}

  /** The types whose files the principal may read (`<type>:read`), by name; fields in their declared order. */
  readableBy(principal: Principal): AttachmentTypeView[] {
    return this.registry
      .all()
      .filter(({ type }) => grants(principal.scopes, `${type}:read`))
      .sort((a, b) => (a.type < b.type ? -1 : 1))
      .map(({ type, collectionPath, fields }) => ({
        type,
        ...(collectionPath === undefined ? {} : { collectionPath }),
        fields: [...fields.values()].map((field) => ({
          name: field.name,
          rules: fileFieldRules(field, this.options.maxFileSize),
        })),
      }));
  }

  permissionUses(): PermissionUse[] {
    return this.registry.all().flatMap(({ type }) => [
      { permission: `${type}:read`, subject: `${type} files` },
      { permission: `${type}:write`, subject: `${type} files` },
    ]);
  }
}
