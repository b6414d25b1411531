import { Injectable } from '@nestjs/common';
import { grants } from '@file-fields/nest';
import type { Principal } from '../../common/auth/principal.js';
import { SubjectPermissions } from '../../common/auth/subject-permissions.js';
import { assertHolds, intersectPermissions } from '../../token/index.js';
import type { WebhookEndpoint } from '../entities/webhook-endpoint.entity.js';
import type { WebhookEvent } from '../entities/webhook-event.entity.js';
import { creatorScopesOf, UNRECORDED_SCOPES, type EndpointCreator } from './webhook-endpoint-filter.js';
import { ALL_EVENTS, WebhookEventCatalog } from '../events/webhook-event-catalog.js';

/**
 * Who may receive what through an endpoint. An endpoint delivers an event only if its creator may read it: the scope
 * of the token that created the endpoint grants the event's permission (`<type>:read`, see
 * {@link WebhookEventCatalog.permissionOf}), and so does the creator's role at the time of sending. Changing,
 * rotating, redelivering, recovering or deleting an endpoint needs every permission its events need, by the
 * escalation rule of the administration API: no one redirects to themselves events they could not read.
 */
@Injectable()
export class WebhookEndpointAccess {
  constructor(
    private readonly catalog: WebhookEventCatalog,
    private readonly subjects: SubjectPermissions,
  ) {}

  /** The creator fields of an endpoint `actor` registers. */
  creatorOf(actor: Principal): EndpointCreator {
    return { createdBy: actor.subject, creatorScopes: [...actor.scopes] };
  }

  /** The permission an event needs that the endpoint's creator's scope lacks, if any (checked when fanning out). */
  scopeLacks(endpoint: EndpointCreator, event: Pick<WebhookEvent, 'kind' | 'data'>): string | undefined {
    return this.lacking(creatorScopesOf(endpoint), event);
  }

  /** What the endpoint may receive now: its creator's token scope, narrowed to what the creator's role grants today. */
  async permissionsOf(endpoint: EndpointCreator): Promise<readonly string[]> {
    if (endpoint.createdBy == null) return UNRECORDED_SCOPES;
    return intersectPermissions(endpoint.creatorScopes ?? [], await this.subjects.of(endpoint.createdBy));
  }

  /** The permission the event needs that `permissions` ({@link permissionsOf}) lacks, if any. */
  lacking(permissions: readonly string[], event: Pick<WebhookEvent, 'kind' | 'data'>): string | undefined {
    const needed = this.catalog.permissionOf(event.kind, event.data);
    return needed === undefined || grants(permissions, needed) ? undefined : needed;
  }

  /**
   * Every permission the events the endpoint may receive need: for each kind it subscribes to, those of the
   * attachment types its filter lets through (all by default), that its creator's scope grants.
   */
  neededToManage(endpoint: EndpointCreator & Pick<WebhookEndpoint, 'events' | 'filter'>): string[] {
    const scopes = creatorScopesOf(endpoint);
    const kinds = endpoint.events.includes(ALL_EVENTS) ? this.catalog.subscribableKinds() : endpoint.events;
    const types = endpoint.filter?.attachment_types ?? this.catalog.attachmentTypes();
    const needed = kinds.flatMap((kind) => this.catalog.permissionsOfKind(kind, types));
    return [...new Set(needed)].filter((permission) => grants(scopes, permission)).sort();
  }

  /** Refuses (403, the permissions missing listed) an `action` on endpoints whose events `actor` could not read. */
  assertMayManage(
    actor: Principal,
    endpoints: ReadonlyArray<Parameters<WebhookEndpointAccess['neededToManage']>[0]>,
    action: string,
  ): void {
    assertHolds(actor, [...new Set(endpoints.flatMap((endpoint) => this.neededToManage(endpoint)))], action);
  }
}
