import type { UnitOfWork } from '../database/unit-of-work.js';
import {
  asReal,
  FakeClock,
  FakeUnitOfWork,
  FakeWebhookAttemptsRepository,
  FakeWebhookDeliveriesRepository,
  FakeWebhookEndpointsRepository,
  FakeWebhookEventsRepository,
  testConfig,
} from './testing/in-memory-repositories.js';
import { WebhookAttemptRecorder } from './webhook-attempt-recorder.js';
import { WebhookAttemptRetention } from './webhook-attempt-retention.js';
import { WebhookDeliveryClaimer } from './webhook-delivery-claimer.js';
import type { WebhookDeliverySender } from './webhook-delivery-sender.js';
import { WebhookDispatcher } from './webhook-dispatcher.js';
import { WebhookEndpointHealth } from './webhook-endpoint-health.js';
import type { SendResult } from './webhook-sender.js';

describe('WebhookDispatcher', () => {
  const setup = (answer: number) => {
    const clock = new FakeClock();
    const config = testConfig();
    const unitOfWork = asReal<UnitOfWork>(new FakeUnitOfWork());
    const deliveries = new FakeWebhookDeliveriesRepository();
    const endpoints = new FakeWebhookEndpointsRepository();
    const events = new FakeWebhookEventsRepository();
    const attempts = new FakeWebhookAttemptsRepository();
    const sent: string[] = [];
    const deliverySender = {
      send: (endpoint, event) => {
        sent.push(`${event.id}->${endpoint.id}`);
        return Promise.resolve<SendResult>({ statusCode: answer, durationMs: 1 });
      },
    } as WebhookDeliverySender;
    const owner = 'instance-a';
    const dispatcher = new WebhookDispatcher(
      config,
      new WebhookDeliveryClaimer(unitOfWork, asReal(deliveries), config, owner, clock),
      deliverySender,
      new WebhookAttemptRecorder(
        unitOfWork,
        asReal(deliveries),
        asReal(attempts),
        new WebhookEndpointHealth(asReal(endpoints), config),
        config,
        owner,
        () => 0.5,
        clock,
      ),
      new WebhookAttemptRetention(unitOfWork, asReal(attempts), config, clock),
      asReal(endpoints),
      asReal(events),
    );
    const queue = (endpointId: number) => {
      const delivery = deliveries.add({ endpointId, nextAttemptAt: clock.nowMs() });
      void events.insert({ id: delivery.eventId, kind: 'file.created', data: {}, createdAt: clock.nowMs() });
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
