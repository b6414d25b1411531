import type { Held } from './webhook-claim-reader.js';
import { WebhookSendQueue } from './webhook-send-queue.js';

/** A queued delivery `id` to endpoint `endpointId`. */
const held = (id: number, endpointId: number) =>
  ({ delivery: { id, endpointId }, endpoint: { id: endpointId } }) as unknown as Held;

describe('WebhookSendQueue', () => {
  it('hands out the oldest delivery whose endpoint has a free slot, within the total', () => {
    const queue = new WebhookSendQueue({ concurrency: 2, endpointConcurrency: 1 });
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
});
