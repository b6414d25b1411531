import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { Clock } from '@file-fields/nest';
import type { WebhookDelivery } from '../entities/webhook-delivery.entity.js';
import type { WebhookEndpoint } from '../entities/webhook-endpoint.entity.js';
import { WebhookDeliverySender } from '../sending/webhook-delivery-sender.js';
import { WebhookAttemptBatcher } from './webhook-attempt-batcher.js';
import { WebhookAttemptRecorder } from './webhook-attempt-recorder.js';
import { notPermitted, WebhookClaimReader, type Held } from './webhook-claim-reader.js';
import { WebhookDeliveryClaimer } from './webhook-delivery-claimer.js';
import { WebhookSendQueue } from './webhook-send-queue.js';
import { LEASE_MARGIN_MS, webhooksConfig, type WebhooksConfig } from '../webhooks.config.js';

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

/**
 * Sends due deliveries. Any number of instances can run it: a delivery is claimed with a lease, sent outside any
 * transaction, and what came of it recorded only while the lease is still held; an expired lease makes it due again.
 * New events are sent as soon as their transaction commits; a poll every WEBHOOK_POLL_INTERVAL (a background job
 * calling {@link wake}) finds the rest.
 *
 * For throughput, deliveries are claimed in batches (on PostgreSQL one statement, which reads their events and their
 * endpoints' versions along) and queued here; at most WEBHOOK_CONCURRENCY requests are open at a time,
 * WEBHOOK_ENDPOINT_CONCURRENCY to one endpoint. A queued delivery is only sent while its lease outlasts WEBHOOK_TIMEOUT
 * by 2.5 s, and otherwise handed back. Their results are stored in batches (WebhookAttemptBatcher).
 */
@Injectable()
export class WebhookDispatcher implements OnApplicationShutdown {
  private readonly logger = new Logger(WebhookDispatcher.name);
  private readonly inFlight = new Set<Promise<void>>();
  /** Claimed, not yet sent. */
  private readonly queue: WebhookSendQueue;
  /** Claimed by {@link claimAndSend} and not yet finished (queued, sending or being recorded). */
  private held = 0;
  private readonly batcher: WebhookAttemptBatcher;
  private claiming = false;
  private wakeAgain = false;
  /** The pump waiting for an endpoint's rate to let the next delivery start. */
  private ratePump?: NodeJS.Timeout;
  private stopping = false;

  constructor(
    @Inject(webhooksConfig.KEY) private readonly config: WebhooksConfig,
    private readonly claimer: WebhookDeliveryClaimer,
    private readonly deliverySender: WebhookDeliverySender,
    private readonly recorder: WebhookAttemptRecorder,
    private readonly reader: WebhookClaimReader,
    private readonly clock: Clock,
  ) {
    // While other requests are open, their answers are likely to come within a few milliseconds: stored together.
    this.queue = new WebhookSendQueue(config, () => clock.nowMs());
    this.batcher = new WebhookAttemptBatcher(recorder, this.logger, () => this.queue.sending > 0);
  }

  /** Stops claiming, hands back what was claimed but not sent, and waits for what is being sent to be recorded. */
  async onApplicationShutdown(): Promise<void> {
    this.stopping = true;
    clearTimeout(this.ratePump);
    while (this.claiming) await Promise.race([...this.inFlight, pause(20)]);
    const unsent = this.queue.takeAll().map(({ delivery }) => delivery);
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
    const kept = this.reader.kept(endpoint.id);
    if (kept) update(kept);
    for (const held of this.queue.peek())
      if (held.endpoint.id === endpoint.id && held.endpoint !== kept) update(held.endpoint);
  }

  /** One attempt now, whatever the schedule or the endpoint's state (manual redelivery). */
  async sendNow(deliveryId: number): Promise<void> {
    const delivery = await this.claimer.claimById(deliveryId);
    if (!delivery) return;
    const held = await this.reader.readOne(delivery);
    if (!held) return;
    const { endpoint, event, lacks } = held;
    if (lacks) {
      await this.recorder.recordSkipped(delivery, notPermitted(endpoint, lacks));
      return;
    }
    const result = await this.deliverySender.send(endpoint, event);
    await this.recorder.recordAttempt(delivery, endpoint, result, true);
  }

  private async claimAndSend(): Promise<void> {
    const perEndpoint = this.config.endpointConcurrency * CLAIM_AHEAD;
    // At most one endpoint's worth per claim: on PostgreSQL a claim locks candidates in proportion to its size.
    const limit = Math.min(this.config.concurrency * CLAIM_AHEAD - this.held, perEndpoint);
    const claimed = await this.claimer.claimDue(limit, perEndpoint);
    if (claimed.length === 0) return;
    // There may be more: look again once this claim is queued.
    if (claimed.length === limit) this.wakeAgain = true;
    this.held += claimed.length;
    let read: Awaited<ReturnType<WebhookClaimReader['read']>>;
    try {
      read = await this.reader.read(claimed);
    } catch (error) {
      // Their leases run out and they are claimed again.
      for (const delivery of claimed) this.finish(delivery);
      throw error;
    }
    for (const delivery of read.gone) this.finish(delivery);
    this.queue.push(read.ready);
    this.pump();
  }

  /** Starts queued deliveries while there are free slots, oldest first among the endpoints that have one. */
  private pump(): void {
    for (let held = this.queue.next(); held; held = this.queue.next()) this.start(held);
    const wait = this.queue.heldBackFor();
    if (wait === undefined || this.ratePump || this.stopping) return;
    this.ratePump = setTimeout(() => {
      this.ratePump = undefined;
      this.pump();
    }, wait);
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
      this.queue.opened(endpoint.id, +1);
      let slotHeld = true;
      const freeSlot = () => {
        if (!slotHeld) return;
        slotHeld = false;
        this.queue.opened(endpoint.id, -1);
        this.pump();
      };
      work = this.deliverySender
        .send(endpoint, event)
        .then((result) => {
          // An answered request is over for the receiver too: the next can start. A failed one's connection may still
          // be closing on the receiver's side, so its slot is held until its result is stored.
          if (result.statusCode !== undefined) freeSlot();
          return this.batcher.record({ delivery, endpoint, result, manual: false });
        })
        .finally(freeSlot);
    }
    this.track(
      work
        .catch((error: unknown) => this.logger.warn({ err: error, delivery: delivery.id }, 'Webhook delivery failed'))
        .finally(() => this.finish(delivery)),
    );
  }

  /** Claims again once the endpoint's queue here is down to a quarter, so one claim feeds many sends. */
  private finish(delivery: WebhookDelivery): void {
    this.claimer.finished(delivery);
    this.held--;
    const queued = this.queue.waitingFor(delivery.endpointId);
    if (queued <= (this.config.endpointConcurrency * CLAIM_AHEAD) / 4) this.wake();
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
