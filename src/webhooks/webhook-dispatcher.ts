import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import type { WebhookDelivery } from './entities/webhook-delivery.entity.js';
import { WebhookEndpointsRepository } from './repositories/webhook-endpoints.repository.js';
import { WebhookEventsRepository } from './repositories/webhook-events.repository.js';
import { WebhookAttemptRecorder } from './webhook-attempt-recorder.js';
import { WebhookAttemptRetention } from './webhook-attempt-retention.js';
import { WebhookDeliveryClaimer } from './webhook-delivery-claimer.js';
import { WebhookDeliverySender } from './webhook-delivery-sender.js';
import { webhooksConfig, type WebhooksConfig } from './webhooks.config.js';

/**
 * Sends due deliveries. Any number of instances can run it: a delivery is claimed with a lease, sent outside any
 * transaction, and what came of it recorded only while the lease is still held; an expired lease makes it due again.
 * New events are sent as soon as their transaction commits; a poll every WEBHOOK_POLL_INTERVAL finds the rest.
 */
@Injectable()
export class WebhookDispatcher implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(WebhookDispatcher.name);
  private readonly inFlight = new Set<Promise<void>>();
  private timer?: NodeJS.Timeout;
  private claiming = false;
  private wakeAgain = false;
  private stopping = false;

  constructor(
    @Inject(webhooksConfig.KEY) private readonly config: WebhooksConfig,
    private readonly claimer: WebhookDeliveryClaimer,
    private readonly deliverySender: WebhookDeliverySender,
    private readonly recorder: WebhookAttemptRecorder,
    private readonly retention: WebhookAttemptRetention,
    private readonly endpoints: WebhookEndpointsRepository,
    private readonly events: WebhookEventsRepository,
  ) {}

  onApplicationBootstrap(): void {
    if (!this.config.dispatcher) return;
    this.timer = setInterval(() => this.wake(), this.config.pollIntervalMs);
    this.timer.unref();
    this.wake();
  }

  /** Stops claiming and waits for what this instance holds to be sent and recorded. */
  async onApplicationShutdown(): Promise<void> {
    this.stopping = true;
    clearInterval(this.timer);
    while (this.claiming || this.inFlight.size > 0) await Promise.race([...this.inFlight, pause(20)]);
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

  /** One attempt now, whatever the schedule or the endpoint's state (manual redelivery). */
  async sendNow(deliveryId: number): Promise<void> {
    const delivery = await this.claimer.claimById(deliveryId);
    if (delivery) await this.deliver(delivery, true);
  }

  private async claimAndSend(): Promise<void> {
    await this.retention.removeExpiredAttempts();
    const claimed = await this.claimer.claimDue(this.config.concurrency - this.inFlight.size);
    for (const delivery of claimed) {
      const sending = this.deliver(delivery, false)
        .catch((error: unknown) => this.logger.warn({ err: error, delivery: delivery.id }, 'Webhook delivery failed'))
        .finally(() => {
          this.claimer.finished(delivery);
          this.inFlight.delete(sending);
          this.wake();
        });
      this.inFlight.add(sending);
    }
  }

  private async deliver(delivery: WebhookDelivery, manual: boolean): Promise<void> {
    const endpoint = await this.endpoints.findById(delivery.endpointId);
    const event = await this.events.findById(delivery.eventId);
    if (!endpoint || !event) return;
    if (!endpoint.active && !manual) {
      await this.recorder.recordSkipped(delivery);
      return;
    }
    const result = await this.deliverySender.send(endpoint, event);
    await this.recorder.recordAttempt(delivery, endpoint, result, manual);
  }
}

function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
