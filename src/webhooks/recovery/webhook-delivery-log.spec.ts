import { asReal } from '../testing/in-memory-repositories.js';
import { webhookFakes } from '../testing/webhook-fixtures.js';
import { WebhookDeliveryLog } from './webhook-delivery-log.js';
import { WebhooksErrorCode, type WebhooksError } from '../webhooks.errors.js';

describe('WebhookDeliveryLog', () => {
  const setup = () => {
    const fakes = webhookFakes();
    const { endpoints, deliveries, attempts, eventRows, unitOfWork } = fakes;
    const log = new WebhookDeliveryLog(
      asReal(endpoints),
      asReal(deliveries),
      asReal(attempts),
      asReal(eventRows),
      unitOfWork,
    );
    return { ...fakes, log };
  };
  const failure = (code: WebhooksErrorCode) => expect.objectContaining({ code }) as unknown as WebhooksError;

  it('pages the deliveries newest first, each with its event’s kind and its attempts', async () => {
    const { endpoints, deliveries, attempts, eventRows, log } = setup();
    const { id } = endpoints.add();
    const older = deliveries.add({ endpointId: id });
    const newer = deliveries.add({ endpointId: id });
    await eventRows.insert({ id: older.eventId, kind: 'file.created', data: {}, createdAt: 1 });
    await eventRows.insert({ id: newer.eventId, kind: 'file.deleted', data: {}, createdAt: 2 });
    const attempt = { attemptedAt: 1, error: null, durationMs: 3, responseBody: null };
    await attempts.insert({ ...attempt, deliveryId: older.id, statusCode: 500 });
    await attempts.insert({ ...attempt, deliveryId: older.id, statusCode: 200 });

    const all = await log.page(id, {}, 10, 0);
    expect(all.items.map(({ delivery, event }) => [delivery.id, event])).toEqual([
      [newer.id, 'file.deleted'],
      [older.id, 'file.created'],
    ]);

    const second = await log.page(id, {}, 1, 1);
    expect(second).toMatchObject({ total: 2, limit: 1, offset: 1 });
    expect(second.items.map(({ delivery, attempts: tries }) => [delivery.id, tries.map((a) => a.statusCode)])).toEqual([
      [older.id, [500, 200]],
    ]);
  });

  it('shows one delivery of the endpoint, and no other endpoint’s', async () => {
    const { endpoints, deliveries, eventRows, log } = setup();
    const { id } = endpoints.add();
    const other = endpoints.add();
    const delivery = deliveries.add({ endpointId: id });
    await eventRows.insert({ id: delivery.eventId, kind: 'webhook.ping', data: {}, createdAt: 1 });

    await expect(log.one(id, delivery.id)).resolves.toMatchObject({ event: 'webhook.ping', attempts: [] });
    await expect(log.one(other.id, delivery.id)).rejects.toEqual(failure(WebhooksErrorCode.DeliveryNotFound));
    await expect(log.page(999, {}, 10, 0)).rejects.toEqual(failure(WebhooksErrorCode.EndpointNotFound));
  });
});
