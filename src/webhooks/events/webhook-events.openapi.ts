import type { OpenAPIObject, OperationObject, SchemaObject } from '@nestjs/swagger';
import type { WebhookEventCatalog, WebhookEventDefinition } from './webhook-event-catalog.js';

/** The component schema of the body of a delivery of this kind, e.g. `WebhookEvent_file.created`. */
export const eventSchemaName = (kind: string): string => `WebhookEvent_${kind}`;

/** The component schema of the body of any delivery: one of the kinds', told apart by `event`. */
export const ANY_EVENT_SCHEMA = 'WebhookEvent';

/** The component schema of a thin delivery's body (an endpoint with `payload: thin`), whatever its kind. */
const THIN_EVENT_SCHEMA = 'WebhookThinEvent';
const REFERENCE_SCHEMA = 'WebhookObjectReference';

/** The operation whose body names the URL deliveries go to: it carries them as an OpenAPI 3.0 callback. */
const REGISTRATION_OPERATION = 'createWebhook';

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/** The JSON body of a delivery of this kind (see WebhookDeliverySender). */
function bodySchema(definition: WebhookEventDefinition): SchemaObject {
  return {
    type: 'object',
    description: `The body of a ${definition.kind} delivery: ${definition.description}`,
    required: ['id', 'event', 'created_at', 'timestamp', 'data'],
    properties: {
      id: { type: 'string', example: 'evt_2f1c9a7e0b4e4a4f9c550d0e3b1d2a11', description: 'The same on every retry' },
      event: { type: 'string', enum: [definition.kind] },
      created_at: { type: 'string', format: 'date-time', description: 'When the event happened' },
      timestamp: { type: 'integer', description: 'When this attempt was sent, in Unix seconds' },
      data: definition.dataSchema,
    },
  };
}

/** A thin delivery's body (see WebhookDeliverySender): the event without its data, and what it is about. */
function thinBodySchema(definitions: readonly WebhookEventDefinition[]): SchemaObject {
  return {
    type: 'object',
    description:
      'The body of a delivery to an endpoint with `payload: thin`: no `data`, but the object the event is about ' +
      '(and the item it belongs to), whose current state the receiver reads at `url` with its own token',
    required: ['id', 'event', 'created_at', 'timestamp', 'object'],
    properties: {
      id: { type: 'string', example: 'evt_2f1c9a7e0b4e4a4f9c550d0e3b1d2a11', description: 'The same on every retry' },
      event: { type: 'string', enum: definitions.map((definition) => definition.kind) },
      created_at: { type: 'string', format: 'date-time', description: 'When the event happened' },
      timestamp: { type: 'integer', description: 'When this attempt was sent, in Unix seconds' },
      object: {
        type: 'object',
        allOf: [ref(REFERENCE_SCHEMA)],
        nullable: true,
        description:
          'The file (file.created, .updated, .deleted), the item (file.reordered) or the webhook (webhook.*)',
      },
      entity: { allOf: [ref(REFERENCE_SCHEMA)], description: 'The item a file belongs to (file.* except reordered)' },
    },
  };
}

const REFERENCE: SchemaObject = {
  type: 'object',
  description: 'Something a thin event is about',
  required: ['type', 'id'],
  properties: {
    type: { type: 'string', example: 'file', description: '`file`, `webhook`, or an attachment type' },
    id: { type: 'integer' },
    url: {
      type: 'string',
      format: 'uri',
      description: 'Where its current state is read (absent for items of a type with no collection path)',
    },
  },
};

/**
 * Puts the catalog's payloads in the OpenAPI document, for receivers to generate types from (OpenAPI 3.0 has no
 * `webhooks` section): one component schema per kind (`WebhookEvent_<kind>`), `WebhookEvent` as their union told
 * apart by `event`, and that union as the body of a callback of the registration, the 3.0 way to describe requests
 * the service sends to a URL it was given.
 */
export function documentWebhookEvents(document: OpenAPIObject, catalog: WebhookEventCatalog): void {
  const definitions = catalog.all();
  const schemas = ((document.components ??= {}).schemas ??= {});
  for (const definition of definitions) schemas[eventSchemaName(definition.kind)] = bodySchema(definition);
  schemas[ANY_EVENT_SCHEMA] = {
    description: 'The body of any webhook delivery; `event` tells which',
    oneOf: definitions.map((definition) => ref(eventSchemaName(definition.kind))),
    discriminator: {
      propertyName: 'event',
      mapping: Object.fromEntries(
        definitions.map((definition) => [definition.kind, `#/components/schemas/${eventSchemaName(definition.kind)}`]),
      ),
    },
  };
  schemas[REFERENCE_SCHEMA] = REFERENCE;
  schemas[THIN_EVENT_SCHEMA] = thinBodySchema(definitions);
  const registration = Object.values(document.paths)
    .map((item) => item.post)
    .find((operation): operation is OperationObject => operation?.operationId === REGISTRATION_OPERATION);
  if (registration)
    registration.callbacks = {
      webhookEvent: { '{$request.body#/url}': { post: delivery(ANY_EVENT_SCHEMA, 'receiveWebhookEvent', '') } },
      webhookThinEvent: {
        '{$request.body#/url}': {
          post: delivery(THIN_EVENT_SCHEMA, 'receiveWebhookThinEvent', ' To an endpoint with `payload: thin`.'),
        },
      },
    };
}

/** A delivery, as the receiver at the registered URL gets it, its body in the given schema. */
function delivery(schema: string, operationId: string, which: string): OperationObject {
  return {
    operationId,
    summary: 'A delivery to the endpoint: one event, signed (see docs/webhooks.md)',
    description:
      `Sent for each event the endpoint subscribes to and its filter lets through.${which} A 2xx within ` +
      'WEBHOOK_TIMEOUT is success; anything else is retried; 410 Gone disables the endpoint.',
    security: [],
    requestBody: { required: true, content: { 'application/json': { schema: ref(schema) } } },
    responses: {
      '2XX': { description: 'Received' },
      '410': { description: 'Gone: the service disables the endpoint and tells the other endpoints' },
    },
  };
}
