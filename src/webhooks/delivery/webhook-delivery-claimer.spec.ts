import {
  asReal,
  FakeClock,
  FakeUnitOfWork,
  FakeWebhookDeliveriesRepository,
  FakeWebhookDeliveryLeasesRepository,
  testConfig,
} from '../testing/in-memory-repositories.js';
import { WebhookDeliveryClaimer } from './webhook-delivery-claimer.js';

describe('WebhookDeliveryClaimer', () => {
  const setup = (env: Record<string, string> = {}) => {
    const clock = new FakeClock();
    const deliveries = new FakeWebhookDeliveriesRepository();
    const claimer = new WebhookDeliveryClaimer(
      asReal(new FakeUnitOfWork()),
      asReal(new FakeWebhookDeliveryLeasesRepository(deliveries)),
      testConfig({ WEBHOOK_LEASE: '60s', ...env }),
      'instance-a',
      clock,
    );
    return { clock, deliveries, claimer, now: clock.nowMs() };
  };
  const ids = (deliveries: Array<{ id: number }>) => deliveries.map((delivery) => delivery.id);

  it('leases due deliveries to this instance for WEBHOOK_LEASE, oldest due first', async () => {
    const { deliveries, claimer, now } = setup();
    deliveries.add({ endpointId: 1, nextAttemptAt: now - 10 });
    deliveries.add({ endpointId: 2, nextAttemptAt: now - 20 });
    deliveries.add({ endpointId: 3, nextAttemptAt: now + 1_000 });
    deliveries.add({ endpointId: 4, nextAttemptAt: now - 30, status: 'succeeded' });

    expect(ids(await claimer.claimDue(8))).toEqual([2, 1]);
    expect(deliveries.byId(2)).toMatchObject({ leaseOwner: 'instance-a', leaseUntil: now + 60_000 });
    expect(deliveries.byId(3).leaseOwner).toBeNull();
  });

  it('claims no more than asked, and nothing a lease still holds', async () => {
    const { deliveries, claimer, now } = setup();
    for (let i = 0; i < 3; i++) deliveries.add({ endpointId: i + 1, nextAttemptAt: now });
    deliveries.add({ endpointId: 9, nextAttemptAt: now, leaseOwner: 'instance-b', leaseUntil: now + 5_000 });

    expect(ids(await claimer.claimDue(2))).toEqual([1, 2]);
    expect(ids(await claimer.claimDue(5))).toEqual([3]);
    expect(await claimer.claimDue(0)).toEqual([]);
  });

  it('keeps at most WEBHOOK_ENDPOINT_CONCURRENCY in flight to one endpoint until they are finished', async () => {
    const { deliveries, claimer, clock, now } = setup({ WEBHOOK_ENDPOINT_CONCURRENCY: '2' });
    for (let i = 0; i < 4; i++) deliveries.add({ endpointId: 1, nextAttemptAt: now });
    deliveries.add({ endpointId: 2, nextAttemptAt: now });

    const first = await claimer.claimDue(10);
    expect(ids(first)).toEqual([1, 2, 5]);
    expect(await claimer.claimDue(10)).toEqual([]);

    claimer.finished(first[0]);
    clock.advance(1);
    expect(ids(await claimer.claimDue(10))).toEqual([3]);
  });

  it("does not let one endpoint's backlog keep the others waiting once it is at its bound", async () => {
    const { deliveries, claimer, now } = setup({ WEBHOOK_ENDPOINT_CONCURRENCY: '1' });
    // A recovery's backlog: older than anything else, more than a claim looks at.
    for (let i = 0; i < 20; i++) deliveries.add({ endpointId: 1, nextAttemptAt: now - 1_000 + i });
    const other = deliveries.add({ endpointId: 2, nextAttemptAt: now });

    expect(ids(await claimer.claimDue(1, 1))).toEqual([1]);
    expect(ids(await claimer.claimDue(1, 1))).toEqual([other.id]);
  });

  it('claims one delivery by id whatever its state or schedule, outside the endpoint bound', async () => {
    const { deliveries, claimer, now } = setup({ WEBHOOK_ENDPOINT_CONCURRENCY: '1' });
    deliveries.add({ endpointId: 1, nextAttemptAt: now });
    deliveries.add({ endpointId: 1, nextAttemptAt: now + 86_400_000, status: 'failed' });
    await claimer.claimDue(10);

    await expect(claimer.claimById(2)).resolves.toMatchObject({ id: 2, leaseOwner: 'instance-a' });
    expect(deliveries.byId(2).leaseUntil).toBe(now + 60_000);
  });
});
