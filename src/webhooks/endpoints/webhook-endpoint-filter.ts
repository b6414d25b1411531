import type { WebhookEndpoint } from '../entities/webhook-endpoint.entity.js';
import { ALL_EVENTS } from '../events/webhook-event-catalog.js';

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

/** What decides which events an endpoint may receive: who created it, with what scope. */
export type EndpointCreator = Pick<WebhookEndpoint, 'createdBy' | 'creatorScopes'>;

/** The creator of endpoints made before creators were recorded: an administrator holding `*`. */
export const UNRECORDED_SCOPES: readonly string[] = Object.freeze(['*']);

/** The most an endpoint may ever receive: its creator's token scope (`*` for endpoints made before it was recorded). */
export function creatorScopesOf(endpoint: EndpointCreator): readonly string[] {
  return endpoint.createdBy == null ? UNRECORDED_SCOPES : (endpoint.creatorScopes ?? []);
}
