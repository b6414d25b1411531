import type { EntityManager } from 'typeorm';
import {
  asReal,
  FakeClock,
  FakeUnitOfWork,
  FakeWebhookDeliveriesRepository,
  FakeWebhookEndpointsRepository,
  FakeWebhookEventsRepository,
} from './testing/in-memory-repositories.js';
import type { WebhookDispatcher } from './webhook-dispatcher.js';
import { WebhookEventCatalog } from './webhook-event-catalog.js';
import { PING_EVENT, WebhookEvents } from './webhook-events.service.js';

describe('WebhookEvents (the outbox)', () => {
  const manager = {} as EntityManager;
  const setup = () => {
    const clock = new FakeClock();
    const wakes: number[] = [];
    const dispatcher = { wake: () => void wakes.push(clock.nowMs()) } as WebhookDispatcher;
    const catalog = new WebhookEventCatalog();
    catalog.register(['file.created', 'file.deleted']);
    const eventRows = new FakeWebhookEventsRepository();
    const endpoints = new FakeWebhookEndpointsRepository();
    const deliveries = new FakeWebhookDeliveriesRepository();
    const events = new WebhookEvents(
      clock,
      dispatcher,
      catalog,
      asReal(eventRows),
      asReal(endpoints),
      asReal(deliveries),
    );
    return { clock, wakes, catalog, eventRows, endpoints, deliveries, events };
  };

  it('writes the event and one due delivery per subscribed endpoint', async () => {
    const { clock, eventRows, endpoints, deliveries, events } = setup();
    const all = endpoints.add({ events: ['*'] });
    const created = endpoints.add({ events: ['file.created'] });
    endpoints.add({ events: ['file.deleted'] });

    const id = await events.write(manager, 'file.created', { file: { id: 1 } });

    expect(id).toMatch(/^evt_[0-9a-f]{32}$/);
    expect(eventRows.rows).toEqual([{ id, kind: 'file.created', data: { file: { id: 1 } }, createdAt: clock.nowMs() }]);
    expect(
      deliveries.rows.map(({ eventId, endpointId, status, nextAttemptAt }) => ({
        eventId,
        endpointId,
        status,
        nextAttemptAt,
      })),
    ).toEqual([
      { eventId: id, endpointId: all.id, status: 'pending', nextAttemptAt: clock.nowMs() },
      { eventId: id, endpointId: created.id, status: 'pending', nextAttemptAt: clock.nowMs() },
    ]);
  });

  it('keeps the deliveries of a disabled endpoint as skipped', async () => {
    const { endpoints, deliveries, events } = setup();
    endpoints.add({ active: false });
    await events.write(manager, 'file.deleted', {});
    expect(deliveries.rows.map((delivery) => delivery.status)).toEqual(['skipped']);
  });

  it('sends a ping to the one endpoint asked, whatever it subscribes to', async () => {
    const { endpoints, deliveries, events } = setup();
    endpoints.add({ events: ['*'] });
    const target = endpoints.add({ events: ['file.deleted'] });
    await events.write(manager, PING_EVENT, { endpoint_id: target.id }, target);
    expect(deliveries.rows.map((delivery) => delivery.endpointId)).toEqual([target.id]);
  });

  it('refuses a kind no publisher registered', async () => {
    const { eventRows, events } = setup();
    await expect(events.write(manager, 'file.exploded', {})).rejects.toThrow(/not registered/);
    expect(eventRows.rows).toEqual([]);
  });

  it('wakes the dispatcher once the transaction commits, not before', async () => {
    const { wakes, events } = setup();
    await new FakeUnitOfWork().run(async (tx) => {
      await events.record(tx, 'file.created', {});
      expect(wakes).toHaveLength(0);
    });
    expect(wakes).toHaveLength(1);
  });
});
