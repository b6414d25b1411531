import { asReal } from '../testing/in-memory-repositories.js';
import { attemptRecorder, endpointAccess, THIS_INSTANCE, webhookFakes } from '../testing/webhook-fixtures.js';
import { WebhookDeliveryClaimer } from './webhook-delivery-claimer.js';
import type { WebhookDeliverySender } from '../sending/webhook-delivery-sender.js';
import { WebhookDispatcher } from './webhook-dispatcher.js';
import { WebhookClaimReader } from './webhook-claim-reader.js';
import type { SendResult } from '../sending/webhook-sender.js';

/** A dispatcher on the fakes, sending through `deliverySender`. */
function dispatcherOf(fakes: ReturnType<typeof webhookFakes>, deliverySender: WebhookDeliverySender) {
  const { clock, config, unitOfWork, leases, endpoints, eventRows } = fakes;
  return new WebhookDispatcher(
    config,
    new WebhookDeliveryClaimer(unitOfWork, asReal(leases), config, THIS_INSTANCE, clock),
    deliverySender,
    attemptRecorder(fakes),
    new WebhookClaimReader(asReal(endpoints), asReal(eventRows), endpointAccess(fakes)),
    clock,
  );
}

describe('WebhookDispatcher', () => {
  const setup = (answer: number) => {
    const fakes = webhookFakes();
    const { clock, deliveries, endpoints, eventRows, attempts } = fakes;
    const sent: string[] = [];
    const deliverySender = {
      send: (endpoint, event) => {
        sent.push(`${event.id}->${endpoint.id}`);
        return Promise.resolve<SendResult>({ statusCode: answer, durationMs: 1 });
      },
    } as WebhookDeliverySender;
    const dispatcher = dispatcherOf(fakes, deliverySender);
    const queue = (endpointId: number) => {
      const delivery = deliveries.add({ endpointId, nextAttemptAt: clock.nowMs() });
      void eventRows.insert({ id: delivery.eventId, kind: 'file.created', data: {}, createdAt: clock.nowMs() });
      return delivery;
    };
    return { dispatcher, deliveries, endpoints, attempts, sent, queue };
  };

  it('sends what is due and records the outcome; a disabled endpoint’s delivery is skipped unsent', async () => {
    const { dispatcher, deliveries, endpoints, attempts, sent, queue } = setup(200);
    const live = endpoints.add();
    const disabled = endpoints.add({ active: false });
    const toLive = queue(live.id);
    const toDisabled = queue(disabled.id);

    dispatcher.wake();
    // Shutting down waits for the claim and every send in flight.
    await dispatcher.onApplicationShutdown();

    expect(sent).toEqual([`${toLive.eventId}->${live.id}`]);
    expect(deliveries.byId(toLive.id)).toMatchObject({ status: 'succeeded', attempts: 1, leaseOwner: null });
    expect(deliveries.byId(toDisabled.id)).toMatchObject({ status: 'skipped', attempts: 0, leaseOwner: null });
    expect(attempts.rows.map((attempt) => attempt.deliveryId)).toEqual([toLive.id]);
  });

  it('sends a manual redelivery even to a disabled endpoint, without scheduling a retry', async () => {
    const { dispatcher, deliveries, endpoints, sent, queue } = setup(500);
    const disabled = endpoints.add({ active: false });
    const delivery = queue(disabled.id);

    await dispatcher.sendNow(delivery.id);

    expect(sent).toHaveLength(1);
    expect(deliveries.byId(delivery.id)).toMatchObject({ status: 'failed', attempts: 1, lastStatusCode: 500 });
  });

  describe('claiming ahead', () => {
    /** A dispatcher whose sends stay open until `answer()` ends the oldest. */
    const held = (env: Record<string, string> = {}) => {
      const fakes = webhookFakes({ WEBHOOK_ENDPOINT_CONCURRENCY: '2', WEBHOOK_CONCURRENCY: '8', ...env });
      const { clock, deliveries, endpoints, eventRows, attempts } = fakes;
      const open: Array<{ endpointId: number; end: (result: SendResult) => void }> = [];
      const deliverySender = {
        send: (endpoint: { id: number }) =>
          new Promise<SendResult>((end) => open.push({ endpointId: endpoint.id, end })),
      } as unknown as WebhookDeliverySender;
      const dispatcher = dispatcherOf(fakes, deliverySender);
      const queue = (endpointId: number, count: number) => {
        for (let i = 0; i < count; i++) {
          const delivery = deliveries.add({ endpointId, nextAttemptAt: clock.nowMs() });
          void eventRows.insert({ id: delivery.eventId, kind: 'file.created', data: {}, createdAt: clock.nowMs() });
        }
      };
      const answer = () => open.shift()?.end({ statusCode: 200, durationMs: 1 });
      return { dispatcher, deliveries, endpoints, attempts, clock, open, queue, answer };
    };
    const settled = () => new Promise((resolve) => setTimeout(resolve, 30));

    it('claims more than it sends, but never has more than WEBHOOK_ENDPOINT_CONCURRENCY requests open to one endpoint', async () => {
      const { dispatcher, deliveries, endpoints, attempts, open, queue, answer } = held();
      const endpoint = endpoints.add();
      queue(endpoint.id, 6);

      dispatcher.wake();
      await settled();
      expect(open).toHaveLength(2);
      expect(deliveries.rows.filter((row) => row.leaseOwner === THIS_INSTANCE)).toHaveLength(6);

      for (let sent = 0; sent < 6; sent++) {
        expect(open.length).toBeLessThanOrEqual(2);
        answer();
        await settled();
      }
      await dispatcher.onApplicationShutdown();
      expect(deliveries.rows.map((row) => [row.status, row.attempts, row.leaseOwner])).toEqual(
        Array.from({ length: 6 }, () => ['succeeded', 1, null]),
      );
      expect(attempts.rows).toHaveLength(6);
    });

    it('hands back a queued delivery whose lease could run out during its attempt, and sends it on a new lease', async () => {
      const { dispatcher, deliveries, endpoints, clock, open, queue, answer } = held({
        WEBHOOK_TIMEOUT: '10s',
        WEBHOOK_LEASE: '15s',
      });
      const endpoint = endpoints.add();
      queue(endpoint.id, 3);
      dispatcher.wake();
      await settled();
      expect(open).toHaveLength(2);

      // 15 s lease - 3 s waited < 10 s timeout + 2.5 s for storing the result: handed back, due again, claimed anew.
      clock.advance(3_000);
      answer();
      await settled();
      expect(open).toHaveLength(2);
      expect(deliveries.byId(3)).toMatchObject({ leaseOwner: THIS_INSTANCE, leaseUntil: clock.nowMs() + 15_000 });
      answer();
      answer();
      await dispatcher.onApplicationShutdown();
      expect(deliveries.byId(3)).toMatchObject({ status: 'succeeded', attempts: 1 });
    });

    it('on shutdown, hands back what it claimed but did not send, and waits for what it sends', async () => {
      const { dispatcher, deliveries, endpoints, open, queue, answer } = held();
      const endpoint = endpoints.add();
      queue(endpoint.id, 5);
      dispatcher.wake();
      await settled();

      expect(open).toHaveLength(2);

      const stopped = dispatcher.onApplicationShutdown();
      await settled();
      answer();
      answer();
      await stopped;

      expect(deliveries.rows.map((row) => [row.status, row.leaseOwner])).toEqual([
        ['succeeded', null],
        ['succeeded', null],
        ['pending', null],
        ['pending', null],
        ['pending', null],
      ]);
    });

    it('skips what it queued for an endpoint deactivated through this instance', async () => {
      const { dispatcher, deliveries, endpoints, open, queue, answer } = held({ WEBHOOK_ENDPOINT_CONCURRENCY: '1' });
      const endpoint = endpoints.add();
      queue(endpoint.id, 3);
      dispatcher.wake();
      await settled();
      expect(open).toHaveLength(1);

      dispatcher.endpointChanged({ ...endpoint, active: false });
      answer();
      await settled();
      await dispatcher.onApplicationShutdown();

      expect(deliveries.rows.map((row) => [row.status, row.attempts])).toEqual([
        ['succeeded', 1],
        ['skipped', 0],
        ['skipped', 0],
      ]);
    });
  });
});
