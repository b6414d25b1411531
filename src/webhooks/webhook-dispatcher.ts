import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';
import { InjectEntityManager } from '@nestjs/typeorm';
import { In, LessThan, type EntityManager } from 'typeorm';
import { Clock } from '../common/clock.js';
import { AppConfig } from '../config/environment.js';
import { UnitOfWork, type Transaction } from '../database/unit-of-work.js';
import { WebhookAttempt } from './entities/webhook-attempt.entity.js';
import { WebhookDelivery } from './entities/webhook-delivery.entity.js';
import { WebhookEndpoint } from './entities/webhook-endpoint.entity.js';
import { WebhookEvent } from './entities/webhook-event.entity.js';
import { WebhookSender, type SendResult } from './webhook-sender.js';
import { signatureHeader } from './webhook-signer.js';
import { nextDelayMs, parseRetryAfter } from './webhook-retry-policy.js';

/** Randomness for retry jitter, injectable so tests can pin it. */
export const WEBHOOK_RANDOM = Symbol('WEBHOOK_RANDOM');
const RETENTION_EVERY_MS = 3_600_000;

/**
 * Sends due deliveries. Any number of instances can run it: a delivery is claimed with a lease (on PostgreSQL with
 * SELECT ... FOR UPDATE SKIP LOCKED), sent outside the transaction, and its result recorded only while the lease is
 * still held; an expired lease makes it due again. New events are sent as soon as their transaction commits.
 */
@Injectable()
export class WebhookDispatcher implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(WebhookDispatcher.name);
  private readonly owner = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  private readonly inFlight = new Set<Promise<void>>();
  private readonly perEndpoint = new Map<number, number>();
  private timer?: NodeJS.Timeout;
  private claiming = false;
  private wakeAgain = false;
  private stopping = false;
  private lastRetention = 0;

  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly config: AppConfig,
    private readonly clock: Clock,
    private readonly sender: WebhookSender,
    @Inject(WEBHOOK_RANDOM) private readonly random: () => number,
    @InjectEntityManager() private readonly manager: EntityManager,
  ) {}

  onApplicationBootstrap(): void {
    if (!this.config.webhooks.dispatcher) return;
    this.timer = setInterval(() => this.wake(), this.config.webhooks.pollIntervalMs);
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
    if (this.stopping || !this.config.webhooks.dispatcher) return;
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
    const [delivery] = await this.unitOfWork.run((tx) => this.lease(tx, [deliveryId]));
    if (delivery) await this.deliver(delivery, true);
  }

  private async claimAndSend(): Promise<void> {
    await this.removeOldAttempts();
    const free = this.config.webhooks.concurrency - this.inFlight.size;
    if (free <= 0) return;
    const claimed = await this.unitOfWork.run((tx) => this.claim(tx, free));
    for (const delivery of claimed) {
      this.countFor(delivery.endpointId, +1);
      const sending = this.deliver(delivery, false)
        .catch((error: unknown) => this.logger.warn({ err: error, delivery: delivery.id }, 'Webhook delivery failed'))
        .finally(() => {
          this.countFor(delivery.endpointId, -1);
          this.inFlight.delete(sending);
          this.wake();
        });
      this.inFlight.add(sending);
    }
  }

  private countFor(endpointId: number, change: number): void {
    const count = (this.perEndpoint.get(endpointId) ?? 0) + change;
    if (count > 0) this.perEndpoint.set(endpointId, count);
    else this.perEndpoint.delete(endpointId);
  }

  /** Due deliveries in order, skipping endpoints that already have as many in flight from here as allowed. */
  private pickWithinEndpointBound(due: Array<Pick<WebhookDelivery, 'id' | 'endpointId'>>, limit: number): number[] {
    const bound = this.config.webhooks.endpointConcurrency;
    const taken = new Map(this.perEndpoint);
    const picked: number[] = [];
    for (const { id, endpointId } of due) {
      if (picked.length >= limit || (taken.get(endpointId) ?? 0) >= bound) continue;
      taken.set(endpointId, (taken.get(endpointId) ?? 0) + 1);
      picked.push(id);
    }
    return picked;
  }

  private async claim(tx: Transaction, limit: number): Promise<WebhookDelivery[]> {
    const now = this.clock.nowMs();
    const query = tx.manager
      .createQueryBuilder(WebhookDelivery, 'd')
      .select(['d.id', 'd.endpointId'])
      .where("d.status = 'pending'")
      .andWhere('d.next_attempt_at <= :now', { now })
      .andWhere('(d.lease_until IS NULL OR d.lease_until < :now)', { now })
      .orderBy('d.next_attempt_at', 'ASC')
      .limit(limit * 4);
    if (tx.supportsRowLocks) query.setLock('pessimistic_write').setOnLocked('skip_locked');
    const due = await query.getMany();
    return this.lease(tx, this.pickWithinEndpointBound(due, limit));
  }

  private async lease(tx: Transaction, ids: number[]): Promise<WebhookDelivery[]> {
    if (ids.length === 0) return [];
    const leaseUntil = this.clock.nowMs() + this.config.webhooks.leaseMs;
    await tx.manager.update(WebhookDelivery, { id: In(ids) }, { leaseOwner: this.owner, leaseUntil });
    return tx.manager.findBy(WebhookDelivery, { id: In(ids) });
  }

  private async deliver(delivery: WebhookDelivery, manual: boolean): Promise<void> {
    const endpoint = await this.manager.findOneBy(WebhookEndpoint, { id: delivery.endpointId });
    const event = await this.manager.findOneBy(WebhookEvent, { id: delivery.eventId });
    if (!endpoint || !event) return;
    if (!endpoint.active && !manual) {
      await this.settle(delivery, { status: 'skipped', completedAt: this.clock.nowMs() });
      return;
    }
    const timestamp = Math.floor(this.clock.nowMs() / 1000);
    const body = JSON.stringify({
      id: event.id,
      event: event.kind,
      created_at: new Date(event.createdAt).toISOString(),
      timestamp,
      data: event.data,
    });
    const result = await this.sender.send(endpoint.url, body, {
      'Content-Type': 'application/json',
      'X-Signature': signatureHeader(body, this.secretsOf(endpoint)),
      'X-Webhook-Id': event.id,
      'X-Webhook-Event': event.kind,
      'X-Webhook-Timestamp': String(timestamp),
    });
    await this.record(delivery, endpoint, result, manual);
  }

  private secretsOf(endpoint: WebhookEndpoint): string[] {
    const previousValid = endpoint.previousSecret && (endpoint.previousSecretExpiresAt ?? 0) > this.clock.nowMs();
    return previousValid ? [endpoint.secret, endpoint.previousSecret!] : [endpoint.secret];
  }

  /** Writes the attempt and the delivery's next state, only while this instance still holds the lease. */
  private async record(
    delivery: WebhookDelivery,
    endpoint: WebhookEndpoint,
    result: SendResult,
    manual: boolean,
  ): Promise<void> {
    const now = this.clock.nowMs();
    const ok = result.statusCode !== undefined && result.statusCode >= 200 && result.statusCode < 300;
    const attempts = delivery.attempts + 1;
    const delay = ok || manual || result.statusCode === 410 ? undefined : this.retryDelay(attempts, result, now);
    const next: Partial<WebhookDelivery> = {
      attempts,
      lastStatusCode: result.statusCode ?? null,
      lastError: result.error ?? null,
      status: ok ? 'succeeded' : delay === undefined ? 'failed' : 'pending',
      nextAttemptAt: delay === undefined ? delivery.nextAttemptAt : now + delay,
      completedAt: ok || delay === undefined ? now : null,
    };
    await this.unitOfWork.run(async (tx) => {
      if (!(await this.settle(delivery, next, tx))) return;
      await tx.manager.insert(WebhookAttempt, {
        deliveryId: delivery.id,
        attemptedAt: now,
        statusCode: result.statusCode ?? null,
        error: result.error ?? null,
        durationMs: result.durationMs,
        responseBody: result.body ?? null,
      });
      await this.updateEndpointHealth(tx, endpoint, ok, result.statusCode === 410, now);
    });
  }

  private retryDelay(attempts: number, result: SendResult, now: number): number | undefined {
    const outcome = {
      statusCode: result.statusCode,
      timedOut: result.timedOut,
      retryAfterSeconds: parseRetryAfter(result.retryAfter, now),
    };
    return nextDelayMs(this.config.webhooks.retrySchedule, attempts, outcome, this.random);
  }

  /** Applies a state change if the lease is still ours; false when another instance took over. */
  private async settle(delivery: WebhookDelivery, next: Partial<WebhookDelivery>, tx?: Transaction): Promise<boolean> {
    const apply = async ({ manager }: Pick<Transaction, 'manager'>) => {
      const result = await manager.update(
        WebhookDelivery,
        { id: delivery.id, leaseOwner: this.owner },
        { ...next, leaseOwner: null, leaseUntil: null },
      );
      return result.affected === 1;
    };
    return tx ? apply(tx) : this.unitOfWork.run(apply);
  }

  private async updateEndpointHealth(
    tx: Transaction,
    endpoint: WebhookEndpoint,
    ok: boolean,
    gone: boolean,
    now: number,
  ): Promise<void> {
    if (ok) {
      await tx.manager.update(WebhookEndpoint, { id: endpoint.id }, { failingSince: null });
      return;
    }
    const failingSince = endpoint.failingSince ?? now;
    const tooLong = now - failingSince >= this.config.webhooks.disableAfterMs;
    const disable =
      gone || tooLong
        ? {
            active: false,
            disabledReason: gone ? 'The endpoint answered 410 Gone.' : 'Every delivery failed for too long.',
          }
        : {};
    await tx.manager.update(WebhookEndpoint, { id: endpoint.id }, { failingSince, ...disable });
  }

  private async removeOldAttempts(): Promise<void> {
    const now = this.clock.nowMs();
    if (now - this.lastRetention < RETENTION_EVERY_MS) return;
    this.lastRetention = now;
    const before = now - this.config.webhooks.attemptRetentionMs;
    await this.unitOfWork.run(({ manager }) => manager.delete(WebhookAttempt, { attemptedAt: LessThan(before) }));
  }
}

function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
