import type { OpenAPIObject, OperationObject, ParameterObject } from '@nestjs/swagger';
import type { FileFieldRegistry } from './file-field.registry.js';

/** The operations whose path names an attachment type and a field (see FileUploadsController, FilesController). */
export const FIELD_OPERATIONS = ['uploadFile', 'reorderFiles'];

/**
 * Completes the OpenAPI document with what only the registry knows once the entities are loaded: the attachment types
 * and field names the field routes accept (as enums), and a table of each field's rules in their descriptions.
 */
export function documentFileFields(document: OpenAPIObject, registry: FileFieldRegistry): void {
  const entities = registry.all().sort((a, b) => a.type.localeCompare(b.type));
  const types = entities.map((entity) => entity.type);
  const fieldNames = [...new Set(entities.flatMap((entity) => [...entity.fields.keys()]))].sort();
  const rows = entities.flatMap((entity) =>
    [...entity.fields.values()].map((field) =>
      [
        entity.type,
        field.name,
        field.multi ? 'multi' : 'single',
        field.maxCount ?? '',
        field.maxSize ?? '',
        field.accept?.join(', ') ?? 'any type except HTML, SVG and executables',
      ].join(' | '),
    ),
  );
  const table = [
    '| attachment type | field | kind | max files | max bytes | accepts |',
    '|---|---|---|---|---|---|',
    ...rows.map((row) => `| ${row} |`),
  ].join('\n');
  for (const operation of operationsNamed(document, FIELD_OPERATIONS)) {
    operation.description = `${operation.description ?? ''}\n\nFile fields:\n\n${table}`.trim();
    for (const parameter of (operation.parameters ?? []) as ParameterObject[]) {
      if (parameter.name === 'attachmentType') parameter.schema = { type: 'string', enum: types };
      if (parameter.name === 'fieldName') parameter.schema = { type: 'string', enum: fieldNames };
    }
  }
}

function operationsNamed(document: OpenAPIObject, ids: string[]): OperationObject[] {
  return Object.values(document.paths).flatMap((item) =>
    [item.get, item.put, item.post, item.delete, item.patch].filter(
      (operation): operation is OperationObject => operation !== undefined && ids.includes(operation.operationId ?? ''),
    ),
  );
}
