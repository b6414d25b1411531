import type {
  OpenAPIObject,
  OperationObject,
  ParameterObject,
  PathItemObject,
  ResponsesObject,
  SchemaObject,
} from '@nestjs/swagger';
import type { FileFieldDefinition } from './file-field.decorator.js';
import type { AttachableEntity, FileFieldRegistry } from './file-field.registry.js';
import { MAX_FILES_PER_REQUEST } from './file-field-rules.js';

/** The one upload route (FileUploadsController), documented once per field instead. */
const UPLOAD_PATH = '/files/{attachmentType}/{attachmentId}/{fieldName}';
/** The reorder route (FilesController): one operation for every multi field. */
const REORDER_OPERATION = 'reorderFiles';

const FILE_RECORD = { $ref: '#/components/schemas/FileRecord' };
const TUS_CREATION =
  'With `Tus-Resumable: 1.0.0` (and `Upload-Length` or `Upload-Defer-Length: 1`) the request creates a resumable ' +
  'upload instead (tus 1.0.0 creation, with its first bytes as `application/offset+octet-stream` if it likes): ' +
  '201 without a body, `Location` naming the upload, which HEAD, PATCH and DELETE continue; the record appears ' +
  'when its last byte arrives, under the same rules.';
const DRAFT_CREATION =
  'With `Upload-Complete` instead (the IETF resumable upload draft), it creates one too, the body being the bytes ' +
  'of the file or of its first part (in any `Content-Type`): `?0` answers 201 without a body, with ' +
  '`Location`, `Upload-Offset` and `Upload-Limit`; `?1` answers as above once the whole file arrived. A client ' +
  'that sends `Upload-Draft-Interop-Version: 8` is told the Location in a 104 first.';
/** A tus creation (Tus-Resumable on the same POST) answers 201 without a body, with the upload's Location. */
const LOCATION = {
  Location: { description: 'tus creation: the upload resource (no body then)', schema: { type: 'string' } },
};
const BINARY = { type: 'string', format: 'binary' };

/**
 * Completes the OpenAPI document with what only the registry knows once the entities are loaded.
 *
 * The upload route is documented as one operation per field, at a path with the attachment type and the field name
 * written out (`POST /files/product/{attachmentId}/cover`, `uploadProductCover`), which the same route serves: a
 * generated client then knows which fields each type has, and per field whether it takes one `file` part or several
 * and whether it answers one record or an array. The reorder route gets the types and multi fields as enums, and
 * both a table of each field's rules.
 */
export function documentFileFields(document: OpenAPIObject, registry: FileFieldRegistry): void {
  const entities = registry.all().sort((a, b) => a.type.localeCompare(b.type));
  const table = rulesTable(entities);
  const upload = document.paths[UPLOAD_PATH]?.post;
  if (upload) {
    const perField = entities.flatMap((entity) =>
      [...entity.fields.values()].map((field): [string, PathItemObject] => [
        `/files/${encodeURIComponent(entity.type)}/{attachmentId}/${encodeURIComponent(field.name)}`,
        { post: uploadOperation(upload, entity.type, field) },
      ]),
    );
    // In the route's place, so that the document keeps its order.
    document.paths = Object.fromEntries(
      Object.entries(document.paths).flatMap((entry) => (entry[0] === UPLOAD_PATH ? perField : [entry])),
    );
  }
  const multiFields = entities.flatMap((entity) => [...entity.fields.values()].filter((field) => field.multi));
  for (const operation of operationsNamed(document, REORDER_OPERATION)) {
    operation.description = `${operation.description ?? ''}\n\nFile fields:\n\n${table}`.trim();
    for (const parameter of (operation.parameters ?? []) as ParameterObject[]) {
      if (parameter.name === 'attachmentType') {
        parameter.schema = { type: 'string', enum: entities.map((entity) => entity.type) };
      }
      if (parameter.name === 'fieldName') {
        parameter.schema = { type: 'string', enum: [...new Set(multiFields.map((field) => field.name))].sort() };
      }
    }
  }
}

/** The upload operation of one field, from the route's own (its security, error answers and tags). */
function uploadOperation(route: OperationObject, type: string, field: FileFieldDefinition): OperationObject {
  const { multi } = field;
  const perRequest = Math.min(MAX_FILES_PER_REQUEST, field.maxCount ?? Infinity);
  const responses: ResponsesObject = { ...route.responses };
  const created = { description: 'Created: the record', content: { 'application/json': { schema: FILE_RECORD } } };
  if (multi) {
    delete responses['200'];
    responses['201'] = {
      description: 'Appended: one `file` part answers its record, several an array of theirs, in order',
      headers: LOCATION,
      content: {
        'application/json': { schema: { oneOf: [FILE_RECORD, { type: 'array', minItems: 2, items: FILE_RECORD }] } },
      },
    };
  } else {
    responses['200'] = { ...created, description: 'Replaced: the record, with the same id, of the new file' };
    responses['201'] = { ...created, headers: LOCATION };
  }
  // A single field answers 409 too: to a resumable upload while another to it is under way.
  if (multi && field.maxCount === undefined) delete responses['409'];
  // The type and the field are in the path: only the entity can be missing.
  if (responses['404']) responses['404'] = { ...responses['404'], description: `No such ${type}` };
  const file: SchemaObject = multi
    ? {
        type: 'array',
        minItems: 1,
        maxItems: perRequest,
        items: BINARY,
        description: `One part per file (at most ${perRequest}), appended in their order`,
      }
    : { ...BINARY, description: 'The file' };
  return {
    ...route,
    operationId: `upload${pascal(type)}${pascal(field.name)}`,
    summary: multi
      ? `Upload files to the ${field.name} of ${withArticle(type)}`
      : `Upload the ${field.name} of ${withArticle(type)}`,
    description: [
      multi
        ? 'A multi field: the files are appended (201).'
        : 'A single field: creates the record (201) or replaces its file, keeping the same id (200).',
      `${rulesOf(field)}. The type is sniffed from the bytes, not taken from the part. Needs \`${type}:write\`.`,
      TUS_CREATION,
      DRAFT_CREATION,
    ].join(' '),
    parameters: ((route.parameters ?? []) as ParameterObject[]).filter(
      (parameter) => parameter.name !== 'attachmentType' && parameter.name !== 'fieldName',
    ),
    requestBody: {
      required: true,
      content: { 'multipart/form-data': { schema: { type: 'object', required: ['file'], properties: { file } } } },
    },
    responses,
  };
}

function rulesOf(field: FileFieldDefinition): string {
  const rules = [`Accepts ${field.accept?.join(', ') ?? 'any type except HTML, SVG and executables'}`];
  if (field.maxSize !== undefined) rules.push(`at most ${field.maxSize} bytes a file`);
  if (field.maxCount !== undefined) rules.push(`at most ${field.maxCount} files`);
  return rules.join('; ');
}

function rulesTable(entities: AttachableEntity[]): string {
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
  return [
    '| attachment type | field | kind | max files | max bytes | accepts |',
    '|---|---|---|---|---|---|',
    ...rows.map((row) => `| ${row} |`),
  ].join('\n');
}

/** `product` → `Product`, `line_item` → `LineItem`: a part of an operationId. */
const pascal = (name: string) =>
  name
    .split(/[^A-Za-z0-9]+/)
    .map((part) => `${part.charAt(0).toUpperCase()}${part.slice(1)}`)
    .join('');

const withArticle = (noun: string) => `${/^[aeio]/i.test(noun) ? 'an' : 'a'} ${noun}`;

function operationsNamed(document: OpenAPIObject, id: string): OperationObject[] {
  return Object.values(document.paths).flatMap((item) =>
    [item.get, item.put, item.post, item.delete, item.patch].filter(
      (operation): operation is OperationObject => operation !== undefined && operation.operationId === id,
    ),
  );
}
