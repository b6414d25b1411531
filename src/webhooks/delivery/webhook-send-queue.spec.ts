import type { Held } from './webhook-claim-reader.js';
import { WebhookSendQueue } from './webhook-send-queue.js';

/** A queued delivery `id` to endpoint `endpointId`. */
const held = (id: number, endpointId: number, rateLimit: number | null = null) =>
  ({ delivery: { id, endpointId }, endpoint: { id: endpointId, rateLimit } }) as unknown as Held;

describe('WebhookSendQueue', () => {
  it('hands out the oldest delivery whose endpoint has a free slot, within the total', () => {
    const queue = new WebhookSendQueue({ concurrency: 2, endpointConcurrency: 1 }, () => 0);
    queue.push([held(1, 7), held(2, 7), held(3, 8), held(4, 9)]);

    expect(queue.next()?.delivery.id).toBe(1);
    queue.opened(7, +1);
    // Endpoint 7 is at its bound: its next delivery waits, endpoint 8's goes first.
    expect(queue.next()?.delivery.id).toBe(3);
    queue.opened(8, +1);
    // Two requests open: no slot at all.
    expect(queue.next()).toBeUndefined();
    expect(queue.sending).toBe(2);

    queue.opened(7, -1);
    expect(queue.next()?.delivery.id).toBe(2);
    expect(queue.waitingFor(9)).toBe(1);
    expect(queue.takeAll().map(({ delivery }) => delivery.id)).toEqual([4]);
    expect(queue.peek()).toEqual([]);
  });

  it("starts no more a second than an endpoint's rate, others passing meanwhile, and says when the next may start", () => {
    let now = 1_000_000;
    const queue = new WebhookSendQueue({ concurrency: 100, endpointConcurrency: 100 }, () => now);
    queue.push([held(1, 7, 2), held(2, 7, 2), held(3, 7, 2), held(4, 8), held(5, 7, 2)]);

    // A burst of one second's worth (2), then endpoint 7 waits while endpoint 8 goes.
    expect([queue.next(), queue.next(), queue.next()].map((h) => h?.delivery.id)).toEqual([1, 2, 4]);
    expect(queue.next()).toBeUndefined();
    expect(queue.heldBackFor()).toBe(500);

    now += 499;
    expect(queue.next()).toBeUndefined();
    now += 1;
    expect(queue.next()?.delivery.id).toBe(3);
    expect(queue.next()).toBeUndefined();
    now += 500;
    expect(queue.next()?.delivery.id).toBe(5);
    expect(queue.heldBackFor()).toBeUndefined();
  });
});
