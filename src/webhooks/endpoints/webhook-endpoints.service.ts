import { Inject, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { Principal } from '../../common/auth/principal.js';
import { Clock, UnitOfWork, type Transaction } from '@file-fields/nest';
import type { WebhookDelivery } from '../entities/webhook-delivery.entity.js';
import type { WebhookEndpoint, WebhookEndpointFilter } from '../entities/webhook-endpoint.entity.js';
import { WebhookDeliveriesRepository } from '../repositories/webhook-deliveries.repository.js';
import { WebhookEndpointsRepository } from '../repositories/webhook-endpoints.repository.js';
import { WebhookDispatcher } from '../delivery/webhook-dispatcher.js';
import { WebhookEndpointAccess } from './webhook-endpoint-access.js';
import { WebhookEventCatalog } from '../events/webhook-event-catalog.js';
import { PING_EVENT, WebhookEvents } from '../events/webhook-events.service.js';
import { newSigningSecret, type SignatureScheme } from '../sending/webhook-signer.js';
import { WebhookUrlPolicy } from './webhook-url-policy.js';
import { webhooksConfig, type WebhooksConfig } from '../webhooks.config.js';
import type { CreateWebhookDto, UpdateWebhookDto, WebhookFilterDto } from './webhook-endpoints.dto.js';
import { WebhooksError, WebhooksErrorCode } from '../webhooks.errors.js';

/** Pings to one endpoint within {@link PING_WINDOW_MS} at most: each is a stored event and a request to the URL. */
export const PING_LIMIT = 10;
const PING_WINDOW_MS = 3_600_000;

/** The stored form of a filter from the API (a plain object; null for none). */
const filterOf = (filter: WebhookFilterDto | null | undefined): WebhookEndpointFilter | null =>
  filter ? { attachment_types: [...filter.attachment_types] } : null;

/** Registration of endpoints, secret rotation, pings, and the delivery log. */
@Injectable()
export class WebhookEndpointsService {
  constructor(
    private readonly endpoints: WebhookEndpointsRepository,
    private readonly deliveryRows: WebhookDeliveriesRepository,
    private readonly unitOfWork: UnitOfWork,
    private readonly urls: WebhookUrlPolicy,
    private readonly events: WebhookEvents,
    private readonly catalog: WebhookEventCatalog,
    private readonly dispatcher: WebhookDispatcher,
    private readonly access: WebhookEndpointAccess,
    @Inject(webhooksConfig.KEY) private readonly config: WebhooksConfig,
    private readonly clock: Clock,
  ) {}

  get(id: number): Promise<WebhookEndpoint> {
    return this.found(id);
  }

  /** Registers an endpoint for `actor`, which then receives only the events `actor` may read. */
  async create(input: CreateWebhookDto, actor: Principal): Promise<WebhookEndpoint> {
    this.catalog.assertSubscribable(input.events);
    if (input.filter) this.catalog.assertAttachmentTypes(input.filter.attachment_types);
    await this.urls.assertAllowed(input.url);
    const scheme = input.signature_scheme ?? 'github';
    const endpoint = {
      url: input.url,
      events: [...new Set(input.events)],
      filter: filterOf(input.filter),
      description: input.description ?? null,
      ordering: input.ordering ?? 'none',
      payload: input.payload ?? 'full',
      rateLimit: input.rate_limit ?? null,
      autoRecover: input.auto_recover ?? false,
      signatureScheme: scheme,
      secret: newSigningSecret(scheme),
      active: true,
      ...this.access.creatorOf(actor),
    };
    return this.unitOfWork.run(({ manager }) => this.endpoints.create(endpoint, manager));
  }

  async update(id: number, input: UpdateWebhookDto, actor: Principal): Promise<WebhookEndpoint> {
    if (input.events !== undefined) this.catalog.assertSubscribable(input.events);
    if (input.filter) this.catalog.assertAttachmentTypes(input.filter.attachment_types);
    if (input.url !== undefined) await this.urls.assertAllowed(input.url);
    const saved = await this.unitOfWork.run(async (tx) => {
      const { manager } = tx;
      const endpoint = await this.lockedForChange(id, tx);
      const before = { ...endpoint };
      assertSameScheme(endpoint, input.signature_scheme);
      if (input.url !== undefined) endpoint.url = input.url;
      if (input.events !== undefined) endpoint.events = [...new Set(input.events)];
      if (input.filter !== undefined) endpoint.filter = filterOf(input.filter);
      if (input.description !== undefined) endpoint.description = input.description;
      if (input.ordering !== undefined) endpoint.ordering = input.ordering;
      if (input.payload !== undefined) endpoint.payload = input.payload;
      if (input.rate_limit !== undefined) endpoint.rateLimit = input.rate_limit;
      if (input.auto_recover !== undefined) endpoint.autoRecover = input.auto_recover;
      if (input.active !== undefined)
        Object.assign(endpoint, {
          active: input.active,
          disabledReason: null,
          failingSince: null,
          warnedAt: null,
          nextProbeAt: null,
        });
      // Only an endpoint the service disabled is probed: one disabled by hand stays so until enabled by hand.
      const probed = !endpoint.active && endpoint.autoRecover && endpoint.disabledReason !== null;
      endpoint.nextProbeAt = probed ? (endpoint.nextProbeAt ?? this.clock.nowMs() + this.config.probeIntervalMs) : null;
      this.access.assertMayManage(actor, [before, endpoint], `change webhook ${id}`);
      return this.endpoints.save(endpoint, manager);
    });
    this.dispatcher.endpointChanged(saved);
    return saved;
  }

  async remove(id: number, actor: Principal): Promise<void> {
    await this.unitOfWork.run(async ({ manager }) => {
      this.access.assertMayManage(actor, [await this.found(id, manager)], `delete webhook ${id}`);
      await this.endpoints.delete(id, manager);
    });
    this.dispatcher.endpointChanged({ id, removed: true });
  }

  /**
   * A new secret, in the given scheme (the endpoint's own by default); deliveries are signed with both for
   * WEBHOOK_SECRET_GRACE, each secret in its own scheme.
   */
  async rotateSecret(id: number, actor: Principal, scheme?: SignatureScheme): Promise<WebhookEndpoint> {
    const saved = await this.unitOfWork.run(async (tx) => {
      const { manager } = tx;
      const endpoint = await this.lockedForChange(id, tx);
      this.access.assertMayManage(actor, [endpoint], `rotate the secret of webhook ${id}`);
      endpoint.previousSecret = endpoint.secret;
      endpoint.previousSignatureScheme = endpoint.signatureScheme;
      endpoint.previousSecretExpiresAt = this.clock.nowMs() + this.config.secretGraceMs;
      endpoint.signatureScheme = scheme ?? endpoint.signatureScheme;
      endpoint.secret = newSigningSecret(endpoint.signatureScheme);
      return this.endpoints.save(endpoint, manager);
    });
    this.dispatcher.endpointChanged(saved);
    return saved;
  }

  /** Queues a webhook.ping to this endpoint alone; at most {@link PING_LIMIT} an hour (429 beyond). */
  async ping(id: number): Promise<{ event_id: string }> {
    const eventId = await this.unitOfWork.run(async (tx) => {
      // Locked where rows can be, so that concurrent pings are counted one after the other.
      const endpoint = await this.endpoints.findForUpdate(id, tx);
      if (!endpoint) throw new WebhooksError(WebhooksErrorCode.EndpointNotFound, `Webhook ${id} does not exist.`);
      await this.assertMayPing(id, tx.manager);
      return this.events.write(tx.manager, PING_EVENT, { endpoint_id: endpoint.id }, endpoint);
    });
    this.dispatcher.wake();
    return { event_id: eventId };
  }

  /**
   * One new attempt now, with the same event id, whatever the state of the delivery or the endpoint (if the
   * endpoint's creator may still read the event).
   */
  async redeliver(id: number, deliveryId: number, actor: Principal): Promise<void> {
    this.access.assertMayManage(actor, [await this.found(id)], `redeliver to webhook ${id}`);
    await this.deliveryOf(id, deliveryId);
    await this.dispatcher.sendNow(deliveryId);
  }

  /** Refuses (403) `actor` a recovery of the endpoint's deliveries unless it may read all the endpoint's events. */
  async assertMayRecover(id: number, actor: Principal): Promise<void> {
    this.access.assertMayManage(actor, [await this.found(id)], `recover the deliveries of webhook ${id}`);
  }

  private async assertMayPing(id: number, manager: EntityManager): Promise<void> {
    const now = this.clock.nowMs();
    const recent = await this.deliveryRows.createdOfKindAfter(
      id,
      PING_EVENT,
      now - PING_WINDOW_MS,
      PING_LIMIT,
      manager,
    );
    if (recent.length < PING_LIMIT) return;
    const error = new WebhooksError(
      WebhooksErrorCode.TooManyPings,
      `Webhook ${id} was pinged ${PING_LIMIT} times within the last hour; ping it again later.`,
    );
    error.headers['Retry-After'] = String(
      Math.max(1, Math.ceil((recent[recent.length - 1] + PING_WINDOW_MS - now) / 1000)),
    );
    throw error;
  }

  private async deliveryOf(id: number, deliveryId: number): Promise<WebhookDelivery> {
    const delivery = await this.deliveryRows.findOfEndpoint(id, deliveryId);
    if (!delivery)
      throw new WebhooksError(WebhooksErrorCode.DeliveryNotFound, `Webhook ${id} has no delivery ${deliveryId}.`);
    return delivery;
  }

  /**
   * The endpoint, its row locked until the transaction ends: a change is decided on the row as the previous one left
   * it, and two rotations each keep the other's secret (one as the previous secret) instead of one getting lost.
   */
  private async lockedForChange(id: number, tx: Transaction): Promise<WebhookEndpoint> {
    const endpoint = await this.endpoints.findForUpdate(id, tx);
    if (!endpoint) throw new WebhooksError(WebhooksErrorCode.EndpointNotFound, `Webhook ${id} does not exist.`);
    return endpoint;
  }

  private async found(id: number, manager?: EntityManager): Promise<WebhookEndpoint> {
    const endpoint = await this.endpoints.findById(id, manager);
    if (!endpoint) throw new WebhooksError(WebhooksErrorCode.EndpointNotFound, `Webhook ${id} does not exist.`);
    return endpoint;
  }
}

/** A secret's format depends on the scheme, so only a rotation, which issues a new secret, can change the scheme. */
function assertSameScheme(endpoint: WebhookEndpoint, scheme: SignatureScheme | undefined): void {
  if (scheme === undefined || scheme === endpoint.signatureScheme) return;
  throw new WebhooksError(
    WebhooksErrorCode.SchemeChangeNeedsRotation,
    `Webhook ${endpoint.id} signs in the ${endpoint.signatureScheme} scheme, whose secret cannot sign in the ` +
      `${scheme} one: POST /api/webhooks/${endpoint.id}/rotate-secret with {"signature_scheme":"${scheme}"} issues a ` +
      'secret in that scheme, and signs in both schemes during WEBHOOK_SECRET_GRACE.',
  );
}
