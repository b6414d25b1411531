import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { Clock } from '../common/clock.js';
import type { WebhookDelivery } from './entities/webhook-delivery.entity.js';
import type { WebhookEndpoint } from './entities/webhook-endpoint.entity.js';
import type { WebhookEvent } from './entities/webhook-event.entity.js';
import type { ClaimedDelivery } from './repositories/webhook-deliveries.repository.js';
import { WebhookEndpointsRepository } from './repositories/webhook-endpoints.repository.js';
import { WebhookEventsRepository } from './repositories/webhook-events.repository.js';
import { WebhookAttemptRecorder, type AttemptOutcome } from './webhook-attempt-recorder.js';
import { WebhookRetention } from './webhook-retention.js';
import { WebhookDeliveryClaimer } from './webhook-delivery-claimer.js';
import { WebhookDeliverySender } from './webhook-delivery-sender.js';
import { WebhookEndpointAccess } from './webhook-endpoint-access.js';
import { LEASE_MARGIN_MS, webhooksConfig, type WebhooksConfig } from './webhooks.config.js';

/**
 * Deliveries claimed ahead of sending, per sending slot (WEBHOOK_CONCURRENCY in all, WEBHOOK_ENDPOINT_CONCURRENCY per
 * endpoint): one claim then feeds many sends, and a slot that frees up starts the next send at once.
 */
const CLAIM_AHEAD = 16;

/**
 * A queued delivery is sent only while its lease outlasts the attempt's deadline by this much, left for storing the
 * result: half the margin WEBHOOK_LEASE must have over WEBHOOK_TIMEOUT, the other half being the time it may wait here
 * (with the defaults, a lease of 60 s and a timeout of 15 s, it may wait 42.5 s).
 */
const SEND_MARGIN_MS = LEASE_MARGIN_MS / 2;

/** Endpoints kept between claims at most (far more than any deployment has). */
const ENDPOINTS_KEPT = 1_000;

/** How long an ended attempt may wait for others to be stored with (it is sent already: only its record waits). */
const RECORD_WAIT_MS = 5;

/** Attempts stored in one transaction at most. */
const RECORD_BATCH = 200;

/** A claimed delivery waiting for a sending slot, with what sending it needs (read once per claim). */
interface Held {
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
 * Sends due deliveries. Any number of instances can run it: a delivery is claimed with a lease, sent outside any
 * transaction, and what came of it recorded only while the lease is still held; an expired lease makes it due again.
 * New events are sent as soon as their transaction commits; a poll every WEBHOOK_POLL_INTERVAL finds the rest.
 *
 * For throughput, deliveries are claimed in batches (on PostgreSQL one statement, which reads their events and their
 * endpoints' versions along) and queued here; at most WEBHOOK_CONCURRENCY requests are open at a time,
 * WEBHOOK_ENDPOINT_CONCURRENCY to one endpoint. A queued delivery is only sent while its lease outlasts WEBHOOK_TIMEOUT
 * by 2.5 s, and otherwise handed back. Attempts that end while earlier ones are being stored, or within a few
 * milliseconds of each other, are stored together (on PostgreSQL, successes in one statement).
 */
@Injectable()
export class WebhookDispatcher implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(WebhookDispatcher.name);
  private readonly inFlight = new Set<Promise<void>>();
  /** Claimed, not yet sent, oldest claim first. */
  private readonly queue: Held[] = [];
  /** Requests open, per endpoint. */
  private readonly sending = new Map<number, number>();
  /** Endpoints as last read, by id, with their version (PostgreSQL only: the claim reads the current version). */
  private readonly endpointCache = new Map<number, { version: string; endpoint: WebhookEndpoint }>();
  private sendingTotal = 0;
  /** Claimed by {@link claimAndSend} and not yet finished (queued, sending or being recorded). */
  private held = 0;
  private toRecord: Array<{ outcome: AttemptOutcome; stored: () => void }> = [];
  private recording = false;
  private recordTimer?: NodeJS.Timeout;
  private timer?: NodeJS.Timeout;
  private claiming = false;
  private wakeAgain = false;
  private stopping = false;

  constructor(
    @Inject(webhooksConfig.KEY) private readonly config: WebhooksConfig,
    private readonly claimer: WebhookDeliveryClaimer,
    private readonly deliverySender: WebhookDeliverySender,
    private readonly recorder: WebhookAttemptRecorder,
    private readonly retention: WebhookRetention,
    private readonly endpoints: WebhookEndpointsRepository,
    private readonly events: WebhookEventsRepository,
    private readonly access: WebhookEndpointAccess,
    private readonly clock: Clock,
  ) {}

  onApplicationBootstrap(): void {
    if (!this.config.dispatcher) return;
    this.timer = setInterval(() => this.wake(), this.config.pollIntervalMs);
    this.timer.unref();
    this.wake();
  }

  /** Stops claiming, hands back what was claimed but not sent, and waits for what is being sent to be recorded. */
  async onApplicationShutdown(): Promise<void> {
    this.stopping = true;
    clearInterval(this.timer);
    while (this.claiming) await Promise.race([...this.inFlight, pause(20)]);
    const unsent = this.queue.splice(0).map(({ delivery }) => delivery);
    this.track(this.claimer.release(unsent).finally(() => unsent.forEach((delivery) => this.finish(delivery))));
    while (this.inFlight.size > 0) await Promise.race([...this.inFlight, pause(20)]);
  }

  /** Looks for due deliveries now (after a commit, a finished send, or on the poll interval). */
  wake(): void {
    if (this.stopping || !this.config.dispatcher) return;
    if (this.claiming) {
      this.wakeAgain = true;
      return;
    }
    this.claiming = true;
    void this.claimAndSend()
      .catch((error: unknown) => this.logger.warn({ err: error }, 'Claiming webhook deliveries failed'))
      .finally(() => {
        this.claiming = false;
        if (this.wakeAgain) {
          this.wakeAgain = false;
          this.wake();
        }
      });
  }

  /**
   * An endpoint changed through this instance (deactivated, new URL or secret) or was removed: the deliveries queued
   * for it go out with its new state, or are skipped, instead of with the state of their claim. (Another instance's
   * queue sees the change at its next claim.)
   */
  endpointChanged(endpoint: WebhookEndpoint | { id: number; removed: true }): void {
    const update = (copy: WebhookEndpoint) =>
      'removed' in endpoint ? (copy.active = false) : Object.assign(copy, endpoint);
    const kept = this.endpointCache.get(endpoint.id)?.endpoint;
    if (kept) update(kept);
    for (const held of this.queue)
      if (held.endpoint.id === endpoint.id && held.endpoint !== kept) update(held.endpoint);
  }

  /** One attempt now, whatever the schedule or the endpoint's state (manual redelivery). */
  async sendNow(deliveryId: number): Promise<void> {
    const delivery = await this.claimer.claimById(deliveryId);
    if (!delivery) return;
    const endpoint = await this.endpoints.findById(delivery.endpointId);
    const event = await this.events.findById(delivery.eventId);
    if (!endpoint || !event) return;
    const lacks = this.access.lacking(await this.access.permissionsOf(endpoint), event);
    if (lacks) {
      await this.recorder.recordSkipped(delivery, notPermitted(endpoint, lacks));
      return;
    }
    const result = await this.deliverySender.send(endpoint, event);
    await this.recorder.recordAttempt(delivery, endpoint, result, true);
  }

  private async claimAndSend(): Promise<void> {
    await this.retention.removeExpired();
    const perEndpoint = this.config.endpointConcurrency * CLAIM_AHEAD;
    // At most one endpoint's worth per claim: on PostgreSQL a claim locks candidates in proportion to its size.
    const limit = Math.min(this.config.concurrency * CLAIM_AHEAD - this.held, perEndpoint);
    const claimed = await this.claimer.claimDue(limit, perEndpoint);
    if (claimed.length === 0) return;
    // There may be more: look again once this claim is queued.
    if (claimed.length === limit) this.wakeAgain = true;
    this.held += claimed.length;
    let endpointById: Map<number, WebhookEndpoint>, eventById: Map<string, WebhookEvent>;
    let permissionsById: Map<number, readonly string[]>;
    try {
      [endpointById, eventById] = [await this.endpointsOf(claimed), await this.eventsOf(claimed)];
      permissionsById = await this.permissionsOf(endpointById);
    } catch (error) {
      // Their leases run out and they are claimed again.
      for (const delivery of claimed) this.finish(delivery);
      throw error;
    }
    for (const { prefetched: _prefetched, ...delivery } of claimed) {
      const endpoint = endpointById.get(delivery.endpointId);
      const event = eventById.get(delivery.eventId);
      if (!endpoint || !event) {
        this.finish(delivery);
        continue;
      }
      const lacks = this.access.lacking(permissionsById.get(endpoint.id) ?? [], event);
      this.queue.push({ delivery, endpoint, event, ...(lacks ? { lacks } : {}) });
    }
    this.pump();
  }

  /** What each endpoint may receive now, by its creator's current role: checked at every claim, not only at fan-out. */
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

  /** Starts queued deliveries while there are free slots, oldest first among the endpoints that have one. */
  private pump(): void {
    for (let i = 0; i < this.queue.length && this.sendingTotal < this.config.concurrency;) {
      const { endpoint } = this.queue[i];
      if ((this.sending.get(endpoint.id) ?? 0) >= this.config.endpointConcurrency) {
        i++;
        continue;
      }
      const [held] = this.queue.splice(i, 1);
      this.start(held);
    }
  }

  private start({ delivery, endpoint, event, lacks }: Held): void {
    let work: Promise<unknown>;
    if (!endpoint.active) {
      work = this.recorder.recordSkipped(delivery);
    } else if (lacks) {
      work = this.recorder.recordSkipped(delivery, notPermitted(endpoint, lacks));
    } else if ((delivery.leaseUntil ?? 0) - this.clock.nowMs() < this.config.timeoutMs + SEND_MARGIN_MS) {
      // Waited too long here: the lease could run out during the attempt, and another instance send it too. Handed
      // back, it is due again at once.
      work = this.claimer.release([delivery]);
    } else {
      this.opened(endpoint.id, +1);
      let slotHeld = true;
      const freeSlot = () => {
        if (!slotHeld) return;
        slotHeld = false;
        this.opened(endpoint.id, -1);
        this.pump();
      };
      work = this.deliverySender
        .send(endpoint, event)
        .then((result) => {
          // An answered request is over for the receiver too: the next can start. A failed one's connection may still
          // be closing on the receiver's side, so its slot is held until its result is stored.
          if (result.statusCode !== undefined) freeSlot();
          return this.record({ delivery, endpoint, result, manual: false });
        })
        .finally(freeSlot);
    }
    this.track(
      work
        .catch((error: unknown) => this.logger.warn({ err: error, delivery: delivery.id }, 'Webhook delivery failed'))
        .finally(() => this.finish(delivery)),
    );
  }

  /** Resolves once the attempt is stored, in a batch with those that ended while the previous batch was stored. */
  private record(outcome: AttemptOutcome): Promise<void> {
    return new Promise((stored) => {
      this.toRecord.push({ outcome, stored });
      // While other requests are open, their answers are likely to come within a few milliseconds: wait for them.
      if (this.sendingTotal === 0 || this.toRecord.length >= RECORD_BATCH) this.flush();
      else this.recordTimer ??= setTimeout(() => this.flush(), RECORD_WAIT_MS);
    });
  }

  private flush(): void {
    clearTimeout(this.recordTimer);
    this.recordTimer = undefined;
    if (this.recording || this.toRecord.length === 0) return;
    this.recording = true;
    const batch = this.toRecord.splice(0, RECORD_BATCH);
    void this.recorder
      .recordAttempts(batch.map(({ outcome }) => outcome))
      .catch((error: unknown) => this.logger.warn({ err: error }, 'Recording webhook attempts failed'))
      .finally(() => {
        this.recording = false;
        for (const { stored } of batch) stored();
        this.flush();
      });
  }

  /** Claims again once the endpoint's queue here is down to a quarter, so one claim feeds many sends. */
  private finish(delivery: WebhookDelivery): void {
    this.claimer.finished(delivery);
    this.held--;
    const queued = this.queue.filter((held) => held.delivery.endpointId === delivery.endpointId).length;
    if (queued <= (this.config.endpointConcurrency * CLAIM_AHEAD) / 4) this.wake();
  }

  private opened(endpointId: number, change: number): void {
    this.sendingTotal += change;
    const count = (this.sending.get(endpointId) ?? 0) + change;
    if (count > 0) this.sending.set(endpointId, count);
    else this.sending.delete(endpointId);
  }

  private track(work: Promise<unknown>): void {
    const tracked: Promise<void> = work.then(
      () => undefined,
      () => undefined,
    );
    this.inFlight.add(tracked);
    void tracked.finally(() => this.inFlight.delete(tracked));
  }
}

function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
