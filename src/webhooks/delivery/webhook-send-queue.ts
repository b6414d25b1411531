import type { Held } from './webhook-claim-reader.js';

/**
 * The dispatcher's claimed deliveries waiting for a sending slot, oldest claim first, and the requests open: at most
 * `concurrency` in all and `endpointConcurrency` to one endpoint.
 */
export class WebhookSendQueue {
  private readonly waiting: Held[] = [];
  /** Requests open, per endpoint. */
  private readonly open = new Map<number, number>();
  private openTotal = 0;

  constructor(private readonly limits: { concurrency: number; endpointConcurrency: number }) {}

  /** Requests open now, to any endpoint. */
  get sending(): number {
    return this.openTotal;
  }

  push(held: readonly Held[]): void {
    this.waiting.push(...held);
  }

  /** The oldest waiting delivery whose endpoint has a free slot, taken from the queue, while a slot is free at all. */
  next(): Held | undefined {
    if (this.openTotal >= this.limits.concurrency) return undefined;
    const i = this.waiting.findIndex(
      ({ endpoint }) => (this.open.get(endpoint.id) ?? 0) < this.limits.endpointConcurrency,
    );
    return i < 0 ? undefined : this.waiting.splice(i, 1)[0];
  }

  /** Every waiting delivery, taken from the queue (at shutdown). */
  takeAll(): Held[] {
    return this.waiting.splice(0);
  }

  /** The waiting deliveries, in order, without taking them. */
  peek(): readonly Held[] {
    return this.waiting;
  }

  waitingFor(endpointId: number): number {
    return this.waiting.filter((held) => held.delivery.endpointId === endpointId).length;
  }

  /** A request to the endpoint opened (+1) or ended (-1). */
  opened(endpointId: number, change: 1 | -1): void {
    this.openTotal += change;
    const count = (this.open.get(endpointId) ?? 0) + change;
    if (count > 0) this.open.set(endpointId, count);
    else this.open.delete(endpointId);
  }
}
