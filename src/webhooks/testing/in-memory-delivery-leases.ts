import { copyRow as copy, type Public } from '@file-fields/nest/testing';
import type { DeliveryRelease, DeliveryState, DueDelivery } from '../repositories/delivery-rows.js';
import type { WebhookDeliveryLeasesRepository } from '../repositories/webhook-delivery-leases.repository.js';
import type { WebhookDelivery } from '../entities/webhook-delivery.entity.js';

/* eslint-disable @typescript-eslint/require-await -- the fakes answer at once, with the repositories' signatures */

/** The in-memory deliveries table whose rows the leases mark (FakeWebhookDeliveriesRepository). */
interface DeliveryRows {
  readonly rows: WebhookDelivery[];
  byId(id: number): WebhookDelivery;
}

/** The leases on the deliveries of an in-memory deliveries table (for unit specs, as in-memory-repositories.ts). */
export class FakeWebhookDeliveryLeasesRepository implements Public<WebhookDeliveryLeasesRepository> {
  constructor(private readonly deliveries: DeliveryRows) {}

  findDue = async (
    _tx: unknown,
    now: number,
    limit: number,
    skippedEndpoints: readonly number[] = [],
  ): Promise<DueDelivery[]> =>
    this.deliveries.rows
      .filter((row) => row.status === 'pending' && row.nextAttemptAt <= now && (row.leaseUntil ?? 0) < now)
      .filter((row) => !skippedEndpoints.includes(row.endpointId))
      .filter((row) => row.orderingKey == null || !this.waitsForEarlier(row))
      .sort((a, b) => a.nextAttemptAt - b.nextAttemptAt)
      .slice(0, limit)
      .map(({ id, endpointId }) => ({ id, endpointId }));
  /** Whether a pending delivery of its endpoint and entity was written before it. */
  private waitsForEarlier(row: WebhookDelivery): boolean {
    return this.deliveries.rows.some(
      (other) =>
        other.status === 'pending' &&
        other.endpointId === row.endpointId &&
        other.orderingKey === row.orderingKey &&
        other.id < row.id,
    );
  }
  lease = async (ids: readonly number[], owner: string, leaseUntil: number) =>
    ids.map((id) => copy(Object.assign(this.deliveries.byId(id), { leaseOwner: owner, leaseUntil })));
  releaseLease = async (id: number, owner: string, next: DeliveryState) => {
    const row = this.deliveries.byId(id);
    if (row.leaseOwner !== owner) return false;
    Object.assign(row, next, { leaseOwner: null, leaseUntil: null });
    return true;
  };
  leaseDue = async (
    claim: { now: number; limit: number; perEndpoint: number; room: ReadonlyMap<number, number> },
    owner: string,
    leaseUntil: number,
  ) => {
    const taken = new Map<number, number>();
    const picked = (await this.findDue(undefined, claim.now, Number.MAX_SAFE_INTEGER)).filter(({ endpointId }) => {
      const count = (taken.get(endpointId) ?? 0) + 1;
      taken.set(endpointId, count);
      return count <= (claim.room.get(endpointId) ?? claim.perEndpoint);
    });
    return this.lease(
      picked.slice(0, claim.limit).map(({ id }) => id),
      owner,
      leaseUntil,
    );
  };
  releaseDelivered = async (releases: readonly DeliveryRelease[], owner: string) => this.releaseLeases(releases, owner);
  releaseLeases = async (releases: readonly DeliveryRelease[], owner: string) => {
    const held: number[] = [];
    for (const { id, next } of releases) if (await this.releaseLease(id, owner, next)) held.push(id);
    return held;
  };
}
