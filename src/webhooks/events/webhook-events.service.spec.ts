import type { EntityManager } from 'typeorm';
import { webhookFakes, outbox } from '../testing/webhook-fixtures.js';
import type { WebhookDispatcher } from '../delivery/webhook-dispatcher.js';
import { PING_EVENT } from './webhook-events.service.js';

describe('WebhookEvents (the outbox)', () => {
  const manager = {} as EntityManager;
  const setup = () => {
    const fakes = webhookFakes();
    const { clock, unitOfWork, eventRows, endpoints, deliveries } = fakes;
    const wakes: number[] = [];
    const dispatcher = { wake: () => void wakes.push(clock.nowMs()) } as WebhookDispatcher;
    const { events, catalog } = outbox(fakes, dispatcher);
    return { clock, unitOfWork, wakes, catalog, eventRows, endpoints, deliveries, events };
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

  it('sends an event about an attachment type only where the filter lets it through, others everywhere', async () => {
    const { catalog, endpoints, deliveries, events } = setup();
    catalog.register([{ kind: 'note.posted', description: 'x', dataSchema: {} }]);
    const unfiltered = endpoints.add({ events: ['*'] });
    const products = endpoints.add({ events: ['*'], filter: { attachment_types: ['product'] } });
    const articles = endpoints.add({
      events: ['file.created', 'note.posted'],
      filter: { attachment_types: ['article'] },
    });
    const recipients = async (kind: string, data: Record<string, unknown>) => {
      deliveries.rows.length = 0;
      await events.write(manager, kind, data);
      return deliveries.rows.map((delivery) => delivery.endpointId);
    };

    expect(await recipients('file.created', { file: { attachment_type: 'product' } })).toEqual([
      unfiltered.id,
      products.id,
    ]);
    expect(await recipients('file.created', { file: { attachment_type: 'article' } })).toEqual([
      unfiltered.id,
      articles.id,
    ]);
    expect(await recipients('note.posted', { attachment_type: 'product' })).toEqual([
      unfiltered.id,
      products.id,
      articles.id,
    ]);
  });

  it('refuses a kind no publisher registered', async () => {
    const { eventRows, events } = setup();
    await expect(events.write(manager, 'file.exploded', {})).rejects.toThrow(/not registered/);
    expect(eventRows.rows).toEqual([]);
  });

  it('wakes the dispatcher once the transaction commits, not before', async () => {
    const { unitOfWork, wakes, events } = setup();
    await unitOfWork.run(async (tx) => {
      await events.record(tx, 'file.created', {});
      expect(wakes).toHaveLength(0);
    });
    expect(wakes).toHaveLength(1);
  });
});
