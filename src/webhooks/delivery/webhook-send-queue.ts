import type { Held } from './webhook-claim-reader.js';

/** What is left of an endpoint's rate: tokens (one per request) as of a time, refilled at `rate_limit` a second. */
interface Bucket {
  tokens: number;
  at: number;
}

/**
 * The dispatcher's claimed deliveries waiting for a sending slot, oldest claim first, and the requests open: at most
 * `concurrency` in all and `endpointConcurrency` to one endpoint, and no more started a second than an endpoint's
 * `rate_limit` (a token bucket as large as the rate: a receiver back after a while gets at most one second's worth
 * at once, then the rate).
 */
export class WebhookSendQueue {
  private readonly waiting: Held[] = [];
  /** Requests open, per endpoint. */
  private readonly open = new Map<number, number>();
  private openTotal = 0;
  /** Rate-limited endpoints that started a request lately; removed once full again. */
  private readonly buckets = new Map<number, Bucket>();

  constructor(
    private readonly limits: { concurrency: number; endpointConcurrency: number },
    private readonly now: () => number,
  ) {}

  /** Requests open now, to any endpoint. */
  get sending(): number {
    return this.openTotal;
  }

  push(held: readonly Held[]): void {
    this.waiting.push(...held);
  }

  /**
   * The oldest waiting delivery whose endpoint has a free slot and is within its rate, taken from the queue (its
   * endpoint's rate counts it as started), while a slot is free at all.
   */
  next(): Held | undefined {
    if (this.openTotal >= this.limits.concurrency) return undefined;
    const now = this.now();
    const i = this.waiting.findIndex(
      ({ endpoint }) =>
        (this.open.get(endpoint.id) ?? 0) < this.limits.endpointConcurrency && this.tokens(endpoint, now) >= 1,
    );
    if (i < 0) return undefined;
    const [held] = this.waiting.splice(i, 1);
    const { id, rateLimit } = held.endpoint;
    if (rateLimit !== null) this.buckets.set(id, { tokens: this.tokens(held.endpoint, now) - 1, at: now });
    return held;
  }

  /** In how many ms a delivery waiting only for its endpoint's rate may start; undefined when none waits for that. */
  heldBackFor(): number | undefined {
    const now = this.now();
    let soonest: number | undefined;
    for (const { endpoint } of this.waiting) {
      if (endpoint.rateLimit === null) continue;
      const wait = Math.ceil(((1 - this.tokens(endpoint, now)) * 1000) / endpoint.rateLimit);
      if (wait > 0) soonest = Math.min(soonest ?? wait, wait);
    }
    return soonest;
  }

  /** The requests the endpoint may start now: its rate's tokens (a fraction: not yet one). */
  private tokens({ id, rateLimit }: Held['endpoint'], now: number): number {
    if (rateLimit === null) return Infinity;
    const bucket = this.buckets.get(id);
    if (!bucket) return rateLimit;
    const tokens = Math.min(rateLimit, bucket.tokens + ((now - bucket.at) * rateLimit) / 1000);
    if (tokens >= rateLimit) this.buckets.delete(id);
    return tokens;
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
