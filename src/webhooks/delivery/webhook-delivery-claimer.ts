import { Inject, Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { Clock, UnitOfWork } from '@file-fields/nest';
import type { WebhookDelivery } from '../entities/webhook-delivery.entity.js';
import type { ClaimedDelivery, DueDelivery } from '../repositories/delivery-rows.js';
import { WebhookDeliveryLeasesRepository } from '../repositories/webhook-delivery-leases.repository.js';
import { webhooksConfig, type WebhooksConfig } from '../webhooks.config.js';

/** The name this instance leases deliveries under (a string provider, so the lease's holder can be checked). */
export const WEBHOOK_LEASE_OWNER = Symbol('WEBHOOK_LEASE_OWNER');

/** Host, process and a random part: two application instances in one process still hold different leases. */
export const newLeaseOwner = (): string => `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;

/**
 * Claims due deliveries for this instance by leasing them for WEBHOOK_LEASE, holding at most a given number of them
 * (WEBHOOK_ENDPOINT_CONCURRENCY unless told otherwise) for any one endpoint; a lease that runs out makes its delivery
 * due again, for any instance.
 */
@Injectable()
export class WebhookDeliveryClaimer {
  private readonly inFlightPerEndpoint = new Map<number, number>();

  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly deliveries: WebhookDeliveryLeasesRepository,
    @Inject(webhooksConfig.KEY) private readonly config: WebhooksConfig,
    @Inject(WEBHOOK_LEASE_OWNER) private readonly owner: string,
    private readonly clock: Clock,
  ) {}

  /**
   * Up to `limit` due deliveries, leased to this instance and counted as held until {@link finished}, with at most
   * `perEndpoint` held for any one endpoint. On PostgreSQL they come with what the claim read along.
   */
  async claimDue(limit: number, perEndpoint = this.config.endpointConcurrency): Promise<ClaimedDelivery[]> {
    if (limit <= 0) return [];
    const claimed = this.unitOfWork.supportsRowLocks
      ? await this.deliveries.leaseDue(
          { now: this.clock.nowMs(), limit, perEndpoint, room: this.roomPerEndpoint(perEndpoint) },
          this.owner,
          this.leaseEnd(),
        )
      : await this.claimInTransaction(limit, perEndpoint);
    for (const delivery of claimed) this.count(delivery.endpointId, +1);
    return claimed;
  }

  /** Where rows cannot be locked (SQLite), transactions run one at a time: find, pick and lease in one. */
  private claimInTransaction(limit: number, perEndpoint: number): Promise<WebhookDelivery[]> {
    return this.unitOfWork.run(async (tx) => {
      // More candidates than wanted: some may go to endpoints that reach their bound with this claim. Those already at
      // it are left out, so a backlog of one endpoint (a recovery) cannot keep the others' deliveries waiting.
      const full = [...this.inFlightPerEndpoint].filter(([, held]) => held >= perEndpoint).map(([id]) => id);
      const due = await this.deliveries.findDue(tx, this.clock.nowMs(), limit * 4, full);
      const picked = this.withinEndpointBound(due, limit, perEndpoint);
      return this.deliveries.lease(picked, this.owner, this.leaseEnd(), tx.manager);
    });
  }

  /** How many more deliveries each endpoint that has some held here may have (the others may have `perEndpoint`). */
  private roomPerEndpoint(perEndpoint: number): Map<number, number> {
    return new Map([...this.inFlightPerEndpoint].map(([endpointId, held]) => [endpointId, perEndpoint - held]));
  }

  /** Leases one delivery whatever its state and schedule (manual redelivery), outside the endpoint bound. */
  async claimById(id: number): Promise<WebhookDelivery | undefined> {
    const [delivery] = await this.unitOfWork.run((tx) =>
      this.deliveries.lease([id], this.owner, this.leaseEnd(), tx.manager),
    );
    return delivery;
  }

  /** A delivery from {@link claimDue} is no longer held. */
  finished(delivery: Pick<WebhookDelivery, 'endpointId'>): void {
    this.count(delivery.endpointId, -1);
  }

  /**
   * Gives back deliveries that were claimed but not sent: their lease ends (where this instance still holds it), so
   * any instance may claim them at once. They still count as held until {@link finished}.
   */
  async release(deliveries: readonly Pick<WebhookDelivery, 'id'>[]): Promise<void> {
    if (deliveries.length === 0) return;
    await this.unitOfWork.run(async ({ manager }) => {
      for (const { id } of deliveries) await this.deliveries.releaseLease(id, this.owner, {}, manager);
    });
  }

  private leaseEnd(): number {
    return this.clock.nowMs() + this.config.leaseMs;
  }

  /** Due deliveries in order, skipping endpoints that already have as many in flight from here as allowed. */
  private withinEndpointBound(due: readonly DueDelivery[], limit: number, perEndpoint: number): number[] {
    const taken = new Map(this.inFlightPerEndpoint);
    const picked: number[] = [];
    for (const { id, endpointId } of due) {
      const inFlight = taken.get(endpointId) ?? 0;
      if (picked.length >= limit || inFlight >= perEndpoint) continue;
      taken.set(endpointId, inFlight + 1);
      picked.push(id);
    }
    return picked;
  }

  private count(endpointId: number, change: number): void {
    const count = (this.inFlightPerEndpoint.get(endpointId) ?? 0) + change;
    if (count > 0) this.inFlightPerEndpoint.set(endpointId, count);
    else this.inFlightPerEndpoint.delete(endpointId);
  }
}
