import { asReal } from './testing/in-memory-repositories.js';
import { attemptRecorder, THIS_INSTANCE, webhookFakes } from './testing/webhook-fixtures.js';
import { WebhookAttemptRetention } from './webhook-attempt-retention.js';
import { WebhookDeliveryClaimer } from './webhook-delivery-claimer.js';
import type { WebhookDeliverySender } from './webhook-delivery-sender.js';
import { WebhookDispatcher } from './webhook-dispatcher.js';
import type { SendResult } from './webhook-sender.js';

describe('WebhookDispatcher', () => {
  const setup = (answer: number) => {
    const fakes = webhookFakes();
    const { clock, config, unitOfWork, deliveries, endpoints, eventRows, attempts } = fakes;
    const sent: string[] = [];
    const deliverySender = {
      send: (endpoint, event) => {
        sent.push(`${event.id}->${endpoint.id}`);
        return Promise.resolve<SendResult>({ statusCode: answer, durationMs: 1 });
      },
    } as WebhookDeliverySender;
    const dispatcher = new WebhookDispatcher(
      config,
      new WebhookDeliveryClaimer(unitOfWork, asReal(deliveries), config, THIS_INSTANCE, clock),
      deliverySender,
      attemptRecorder(fakes),
      new WebhookAttemptRetention(unitOfWork, asReal(attempts), config, clock),
      asReal(endpoints),
      asReal(eventRows),
    );
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
});
