import { Injectable } from '@nestjs/common';
import type { SchemaObject } from '@nestjs/swagger';
import { ValidationFailedError } from '@file-fields/nest';

/** In an endpoint's `events`: every kind, including those registered later. */
export const ALL_EVENTS = '*';

/**
 * The JSON Schema of an event's `data`, in the part of JSON Schema that OpenAPI 3.0 shares with it (`type`,
 * `properties`, `required`, `items`, `enum`, `format`, `description`; no `nullable`, no type arrays): the same object
 * is served by `GET /api/webhooks/event-types` and put in the OpenAPI document.
 */
export type EventDataSchema = SchemaObject;

/** Something a receiver can fetch itself with its own token: its type, its id and its path on this service. */
export interface ObjectReference {
  type: string;
  id: number;
  /** Absent for items of an attachment type whose application names no collection path. */
  path?: string;
}

/**
 * What an event is about: the entity whose events an endpoint ordered per entity receives in order (`key`), the
 * object a thin payload names, and the entity it belongs to when that is another one (a file's item).
 */
export interface EventSubject {
  key: string;
  object: ObjectReference;
  entity?: ObjectReference;
}

/** The subject of the events about a webhook endpoint (`data.endpoint_id`): the endpoint, at its admin path. */
export function endpointSubjectOf(data: Record<string, unknown>): EventSubject | undefined {
  const id = data.endpoint_id;
  if (typeof id !== 'number') return undefined;
  return { key: `webhook:${id}`, object: { type: 'webhook', id, path: `/api/webhooks/${id}` } };
}

/** One event kind, as the part of the application that publishes it registers it. */
export interface WebhookEventDefinition {
  kind: string;
  /** When it is sent, in one sentence. */
  description: string;
  dataSchema: EventDataSchema;
  /** false: sent to one endpoint on demand (webhook.ping), never subscribed to. Default true. */
  subscribable?: boolean;
  /**
   * The attachment type an event's data is about, which endpoints' `filter.attachment_types` is checked against.
   * Kinds without it (webhook.*) are never filtered.
   */
  attachmentTypeOf?: (data: Record<string, unknown>) => string | undefined;
  /**
   * For kinds about no attachment type: the permission an endpoint's creator needs for the endpoint to receive them
   * (none: any endpoint may). Kinds about an attachment type need `<type>:read`.
   */
  permission?: string;
  /** What an event with this data is about; undefined: nothing to order by, and a thin payload names no object. */
  subjectOf?: (data: Record<string, unknown>) => EventSubject | undefined;
}

/**
 * The event kinds this application emits, registered by the parts that publish them, so the outbox knows no
 * feature by name. Endpoints may subscribe to the subscribable ones; the others are sent to one endpoint on demand.
 * Publishers of events about attachments also say which attachment types exist, for the endpoints' filters.
 */
@Injectable()
export class WebhookEventCatalog {
  private readonly definitions = new Map<string, WebhookEventDefinition>();
  private readonly attachmentTypeSources: Array<() => readonly string[]> = [];

  register(definitions: readonly WebhookEventDefinition[]): void {
    for (const definition of definitions) this.definitions.set(definition.kind, definition);
  }

  /** Where the attachment types that events may be about come from (read when an endpoint's filter is checked). */
  registerAttachmentTypes(source: () => readonly string[]): void {
    this.attachmentTypeSources.push(source);
  }

  has(kind: string): boolean {
    return this.definitions.has(kind);
  }

  /** Every registered kind, by name (whatever order their publishers were built in). */
  all(): WebhookEventDefinition[] {
    return [...this.definitions.values()].sort((a, b) => a.kind.localeCompare(b.kind));
  }

  /** What an endpoint may list in `events`, `*` last. */
  subscribableKinds(): string[] {
    const subscribable = this.all().filter((definition) => definition.subscribable !== false);
    return [...subscribable.map((definition) => definition.kind), ALL_EVENTS];
  }

  /** The attachment type an event of this kind with this data is about; undefined for kinds that have none. */
  attachmentTypeOf(kind: string, data: Record<string, unknown>): string | undefined {
    return this.definitions.get(kind)?.attachmentTypeOf?.(data);
  }

  /** What an event of this kind with this data is about, if its kind says. */
  subjectOf(kind: string, data: Record<string, unknown>): EventSubject | undefined {
    return this.definitions.get(kind)?.subjectOf?.(data);
  }

  /** Every attachment type the registered sources know, by name. */
  attachmentTypes(): string[] {
    return [...new Set(this.attachmentTypeSources.flatMap((source) => source()))].sort();
  }

  /**
   * The permission needed to receive an event of this kind with this data: `<type>:read` for one about an attachment
   * type (`*` when its type cannot be told), the kind's own permission otherwise, if any.
   */
  permissionOf(kind: string, data: Record<string, unknown>): string | undefined {
    const definition = this.definitions.get(kind);
    if (!definition?.attachmentTypeOf) return definition?.permission;
    const type = definition.attachmentTypeOf(data);
    return type === undefined ? '*' : `${type}:read`;
  }

  /**
   * Every permission that receiving events of this kind can need, for events about these attachment types (the kinds
   * about attachment types need one `<type>:read` per type).
   */
  permissionsOfKind(kind: string, types: readonly string[]): string[] {
    const definition = this.definitions.get(kind);
    if (definition?.attachmentTypeOf) return types.map((type) => `${type}:read`);
    return definition?.permission ? [definition.permission] : [];
  }

  /** Refuses, as a validation failure of the field, a subscription to a kind nothing here emits. */
  assertSubscribable(events: readonly string[], field = 'events'): void {
    const allowed = this.subscribableKinds();
    if (events.every((kind) => allowed.includes(kind))) return;
    throw new ValidationFailedError([
      { field, messages: [`each value in ${field} must be one of the following values: ${allowed.join(', ')}`] },
    ]);
  }

  /**
   * Refuses, as a validation failure of the field, an attachment type no registered source knows (a typo would
   * otherwise filter out every event silently). Without a source, any well-formed name is accepted.
   */
  assertAttachmentTypes(types: readonly string[], field = 'filter.attachment_types'): void {
    if (this.attachmentTypeSources.length === 0) return;
    const known = this.attachmentTypes();
    if (types.every((type) => known.includes(type))) return;
    throw new ValidationFailedError([
      { field, messages: [`each value in ${field} must be one of the following values: ${known.join(', ')}`] },
    ]);
  }
}
