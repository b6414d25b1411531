import { Injectable } from '@nestjs/common';
import {
  FILE_EVENT_KINDS,
  FileEventPublisher,
  FileFieldRegistry,
  type FileEvent,
  type FileEventKind,
  type FileEventTransaction,
} from '@file-fields/nest';
import {
  WebhookEventCatalog,
  type EventDataSchema,
  type EventSubject,
  type WebhookEventDefinition,
} from './webhook-event-catalog.js';
import { WebhookEvents } from './webhook-events.service.js';

/**
 * A file record as events carry it (FileRecordDto's JSON). Written out rather than derived from the DTO's decorators,
 * which @nestjs/swagger reads only while building the document; the event-types suite checks that both agree.
 */
const FILE_RECORD: EventDataSchema = {
  type: 'object',
  description: 'One file of a file field',
  required: [
    'id',
    'path',
    'attachment_id',
    'attachment_type',
    'field',
    'sort_order',
    'original_name',
    'mime_type',
    'size',
    'width',
    'height',
    'checksum_sha256',
    'created_at',
    'updated_at',
  ],
  properties: {
    id: { type: 'integer' },
    path: { type: 'string', description: 'Storage key' },
    attachment_id: { type: 'integer' },
    attachment_type: { type: 'string' },
    field: { type: 'string' },
    sort_order: { type: 'integer', description: 'Position within the field, from 0' },
    original_name: { type: 'string' },
    mime_type: { type: 'string', description: 'Sniffed from the bytes' },
    size: { type: 'integer', description: 'Bytes' },
    width: { type: 'integer', nullable: true, description: 'Pixels of an image as shown; null for other files' },
    height: { type: 'integer', nullable: true, description: 'Pixels of an image as shown; null for other files' },
    checksum_sha256: { type: 'string' },
    created_at: { type: 'string', format: 'date-time' },
    updated_at: { type: 'string', format: 'date-time' },
    url: {
      type: 'string',
      format: 'uri',
      description: 'Never in events: signed URLs expire (GET /files/{id} gives a current one)',
    },
    variants: {
      type: 'object',
      description: 'Never in events: image variants are made after the change (GET /files/{id} lists them)',
    },
  },
};

const ONE_FILE: EventDataSchema = { type: 'object', required: ['file'], properties: { file: FILE_RECORD } };

const FIELD_ORDER: EventDataSchema = {
  type: 'object',
  required: ['attachment_type', 'attachment_id', 'field', 'files'],
  properties: {
    attachment_type: { type: 'string' },
    attachment_id: { type: 'integer' },
    field: { type: 'string' },
    files: { type: 'array', items: FILE_RECORD, description: 'The field’s files in their new order' },
  },
};

/** `data.file.attachment_type`, or `data.attachment_type` (file.reordered). */
function attachmentTypeOf(data: Record<string, unknown>): string | undefined {
  const file = data.file as { attachment_type?: unknown } | undefined;
  const type = file?.attachment_type ?? data.attachment_type;
  return typeof type === 'string' ? type : undefined;
}

/** Where the items of each attachment type are read, by type (those whose application says). */
type CollectionPaths = () => ReadonlyMap<string, string>;

/**
 * A file event's subject: the item its file belongs to (`<type>:<id>`, the order kept per entity), and the file
 * (`GET /files/{id}`), or the item itself for file.reordered.
 */
function fileSubjectOf(data: Record<string, unknown>, paths: CollectionPaths): EventSubject | undefined {
  const file = data.file as { id?: unknown; attachment_type?: unknown; attachment_id?: unknown } | undefined;
  const type = file?.attachment_type ?? data.attachment_type;
  const id = file?.attachment_id ?? data.attachment_id;
  if (typeof type !== 'string' || typeof id !== 'number') return undefined;
  const collection = paths().get(type);
  const entity = { type, id, ...(collection === undefined ? {} : { path: `${collection}/${id}` }) };
  const key = `${type}:${id}`;
  if (typeof file?.id !== 'number') return { key, object: entity };
  return { key, object: { type: 'file', id: file.id, path: `/files/${file.id}` }, entity };
}

const FILE_EVENTS: Record<FileEventKind, Pick<WebhookEventDefinition, 'description' | 'dataSchema'>> = {
  'file.created': { description: 'A file was added to an item, such as a product’s cover.', dataSchema: ONE_FILE },
  'file.updated': { description: 'A file was replaced by another one.', dataSchema: ONE_FILE },
  'file.deleted': {
    description: 'A file was removed, also when the item it belonged to was deleted.',
    dataSchema: ONE_FILE,
  },
  'file.reordered': {
    description: 'The files of a list, such as a gallery, were put in a new order.',
    dataSchema: FIELD_ORDER,
  },
};

/** The files module's event port, implemented by the outbox: every file change becomes a webhook event. */
@Injectable()
export class WebhookFileEvents extends FileEventPublisher {
  constructor(
    private readonly events: WebhookEvents,
    catalog: WebhookEventCatalog,
    registry: FileFieldRegistry,
  ) {
    super();
    let collectionPaths: ReadonlyMap<string, string> | undefined;
    // Read once the registry is complete: the first event comes after every module has registered its types.
    const paths = () =>
      (collectionPaths ??= new Map(
        registry.all().flatMap(({ type, collectionPath }) => (collectionPath ? [[type, collectionPath]] : [])),
      ));
    const subjectOf = (data: Record<string, unknown>) => fileSubjectOf(data, paths);
    catalog.register(FILE_EVENT_KINDS.map((kind) => ({ kind, ...FILE_EVENTS[kind], attachmentTypeOf, subjectOf })));
    catalog.registerAttachmentTypes(() => registry.all().map((entity) => entity.type));
  }

  async publish(tx: FileEventTransaction, event: FileEvent): Promise<void> {
    if (tx.afterCommit) {
      const afterCommit = tx.afterCommit.bind(tx);
      await this.events.record({ manager: tx.manager, afterCommit }, event.kind, event.data);
    } else await this.events.write(tx.manager, event.kind, event.data);
  }
}
