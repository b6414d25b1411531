import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import type { WebhookEventDefinition } from './webhook-event-catalog.js';
import { eventSchemaName } from './webhook-events.openapi.js';

/** One event kind of the catalog: when it is sent, and the JSON Schema of its `data`. */
@ApiSchema({ name: 'WebhookEventType' })
export class WebhookEventTypeDto {
  @ApiProperty({ example: 'file.created', description: 'The `event` of the body and the X-Webhook-Event header' })
  event!: string;
  @ApiProperty({ example: 'A file was added to an item, such as a product’s cover.' }) description!: string;
  @ApiProperty({ example: true, description: 'false: sent on demand only; endpoints cannot list it in `events`' })
  subscribable!: boolean;
  @ApiProperty({ example: true, description: 'Whether an endpoint’s `filter.attachment_types` applies to it' })
  filterable_by_attachment_type!: boolean;
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    example: { type: 'object', required: ['file'], properties: { file: { type: 'object' } } },
    description: 'The JSON Schema of `data`',
  })
  data_schema!: Record<string, unknown>;
  @ApiProperty({
    example: '#/components/schemas/WebhookEvent_file.created',
    description: 'The schema of the whole body in the OpenAPI document (/api/docs-json)',
  })
  openapi_schema!: string;

  static from(definition: WebhookEventDefinition): WebhookEventTypeDto {
    return Object.assign(new WebhookEventTypeDto(), {
      event: definition.kind,
      description: definition.description,
      subscribable: definition.subscribable !== false,
      filterable_by_attachment_type: definition.attachmentTypeOf !== undefined,
      data_schema: definition.dataSchema,
      openapi_schema: `#/components/schemas/${eventSchemaName(definition.kind)}`,
    });
  }
}
