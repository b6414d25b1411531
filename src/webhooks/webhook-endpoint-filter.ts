import type { WebhookEndpoint } from './entities/webhook-endpoint.entity.js';
import { ALL_EVENTS } from './webhook-event-catalog.js';

/** An endpoint's `filter`: which events, among those of the kinds it subscribes to, it receives. */
export interface WebhookEndpointFilter {
  /** Only events about these attachment types; events about none (webhook.*) always pass. */
  attachment_types?: string[];
}

/** The attachment type names `@AttachmentType()` accepts. */
export const ATTACHMENT_TYPE_NAME = /^[a-z][a-z0-9_-]{0,63}$/;

/**
 * Whether an event goes to an endpoint when it is fanned out: the endpoint subscribes to its kind (or to `*`), and
 * its filter, if any, lets the event's attachment type through.
 */
export function receivesEvent(
  endpoint: Pick<WebhookEndpoint, 'events' | 'filter'>,
  kind: string,
  attachmentType: string | undefined,
): boolean {
  if (!endpoint.events.includes(ALL_EVENTS) && !endpoint.events.includes(kind)) return false;
  const types = endpoint.filter?.attachment_types;
  return attachmentType === undefined || types === undefined || types.includes(attachmentType);
}
