import { Injectable } from '@nestjs/common';
import type { WebhookDelivery } from '../entities/webhook-delivery.entity.js';
import type { WebhookEndpoint } from '../entities/webhook-endpoint.entity.js';
import type { WebhookEvent } from '../entities/webhook-event.entity.js';
import { WebhookEndpointAccess } from '../endpoints/webhook-endpoint-access.js';
import type { ClaimedDelivery } from '../repositories/delivery-rows.js';
import { WebhookEndpointsRepository } from '../repositories/webhook-endpoints.repository.js';
import { WebhookEventsRepository } from '../repositories/webhook-events.repository.js';

/** Endpoints kept between claims at most (far more than any deployment has). */
const ENDPOINTS_KEPT = 1_000;

/** A claimed delivery with what sending it needs (read once per claim). */
export interface Held {
  delivery: WebhookDelivery;
  endpoint: WebhookEndpoint;
  event: WebhookEvent;
  /** The permission the event needs that the endpoint's creator no longer holds: then it is skipped, unsent. */
  lacks?: string;
}

/** Why a delivery was skipped rather than sent: its endpoint's creator may not read its event (any more). */
export function notPermitted(endpoint: Pick<WebhookEndpoint, 'id' | 'createdBy'>, permission: string): string {
  return `Not sent: webhook ${endpoint.id}'s creator (${endpoint.createdBy}) lacks ${permission}.`;
}

/**
 * Reads what claimed deliveries need to be sent: their endpoints, their events, and what each endpoint's creator may
 * read now (checked at every claim, not only at fan-out). Endpoints are kept here by the version a PostgreSQL claim
 * reads along, so an unchanged one is not read again.
 */
@Injectable()
export class WebhookClaimReader {
  /** Endpoints as last read, by id, with their version (PostgreSQL only: the claim reads the current version). */
  private readonly endpointCache = new Map<number, { version: string; endpoint: WebhookEndpoint }>();

  constructor(
    private readonly endpoints: WebhookEndpointsRepository,
    private readonly events: WebhookEventsRepository,
    private readonly access: WebhookEndpointAccess,
  ) {}

  /** The deliveries ready to send, and those whose endpoint or event is gone (to be let go unsent). */
  async read(claimed: readonly ClaimedDelivery[]): Promise<{ ready: Held[]; gone: WebhookDelivery[] }> {
    const [endpointById, eventById] = [await this.endpointsOf(claimed), await this.eventsOf(claimed)];
    const permissionsById = await this.permissionsOf(endpointById);
    const ready: Held[] = [];
    const gone: WebhookDelivery[] = [];
    for (const { prefetched: _prefetched, ...delivery } of claimed) {
      const endpoint = endpointById.get(delivery.endpointId);
      const event = eventById.get(delivery.eventId);
      if (!endpoint || !event) {
        gone.push(delivery);
        continue;
      }
      const lacks = this.access.lacking(permissionsById.get(endpoint.id) ?? [], event);
      ready.push({ delivery, endpoint, event, ...(lacks ? { lacks } : {}) });
    }
    return { ready, gone };
  }

  /** One delivery's endpoint, event and lacking permission, read now (a manual redelivery); none when either is gone. */
  async readOne(delivery: WebhookDelivery): Promise<Held | undefined> {
    const endpoint = await this.endpoints.findById(delivery.endpointId);
    const event = await this.events.findById(delivery.eventId);
    if (!endpoint || !event) return undefined;
    const lacks = this.access.lacking(await this.access.permissionsOf(endpoint), event);
    return { delivery, endpoint, event, ...(lacks ? { lacks } : {}) };
  }

  /** The copy of the endpoint kept here, which deliveries queued from earlier claims share. */
  kept(endpointId: number): WebhookEndpoint | undefined {
    return this.endpointCache.get(endpointId)?.endpoint;
  }

  private async permissionsOf(endpoints: Map<number, WebhookEndpoint>): Promise<Map<number, readonly string[]>> {
    const all = [...endpoints.values()];
    const permissions = await Promise.all(all.map((endpoint) => this.access.permissionsOf(endpoint)));
    return new Map(all.map((endpoint, i) => [endpoint.id, permissions[i]]));
  }

  /** The claimed deliveries' events: read along on PostgreSQL, in one query otherwise. */
  private async eventsOf(claimed: readonly ClaimedDelivery[]): Promise<Map<string, WebhookEvent>> {
    const missing = claimed.filter(({ prefetched }) => !prefetched).map(({ eventId }) => eventId);
    const read = await this.events.findByIds(missing);
    const prefetched = claimed.flatMap(({ prefetched }) => (prefetched ? [prefetched.event] : []));
    return new Map([...read, ...prefetched].map((event) => [event.id, event]));
  }

  /**
   * The claimed deliveries' endpoints, in one query for those not kept here at the version the claim saw. Deliveries
   * queued from one claim share one copy, which the attempts' health updates keep current.
   */
  private async endpointsOf(claimed: readonly ClaimedDelivery[]): Promise<Map<number, WebhookEndpoint>> {
    const wanted = new Map<number, string | undefined>();
    for (const { endpointId, prefetched } of claimed) wanted.set(endpointId, prefetched?.endpointVersion);
    const stale = [...wanted].filter(([id, version]) => !version || this.endpointCache.get(id)?.version !== version);
    const read = await this.endpoints.findByIds(stale.map(([id]) => id));
    if (this.endpointCache.size > ENDPOINTS_KEPT) this.endpointCache.clear();
    const found = new Map<number, WebhookEndpoint>();
    for (const fresh of read) {
      // Changed in place, so deliveries still queued from earlier claims see the change too.
      const kept = this.endpointCache.get(fresh.id)?.endpoint;
      const endpoint = kept ? Object.assign(kept, fresh) : fresh;
      const version = wanted.get(endpoint.id);
      if (version) this.endpointCache.set(endpoint.id, { version, endpoint });
      found.set(endpoint.id, endpoint);
    }
    for (const [id] of wanted) {
      const kept = this.endpointCache.get(id);
      if (!found.has(id) && kept) found.set(id, kept.endpoint);
    }
    return found;
  }
}
