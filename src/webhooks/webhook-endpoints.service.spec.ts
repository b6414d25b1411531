import { ValidationFailedError } from '../common/errors/validation-failed.error.js';
import { asReal } from './testing/in-memory-repositories.js';
import { outbox, webhookFakes } from './testing/webhook-fixtures.js';
import type { WebhookDispatcher } from './webhook-dispatcher.js';
import { WebhookEndpointsService } from './webhook-endpoints.service.js';
import { PING_EVENT } from './webhook-events.service.js';
import type { WebhookUrlPolicy } from './webhook-url-policy.js';
import { WebhooksError, WebhooksErrorCode } from './webhooks.errors.js';

describe('WebhookEndpointsService', () => {
  const setup = () => {
    const fakes = webhookFakes({ WEBHOOK_SECRET_GRACE: '1h' });
    const { clock, config, unitOfWork, endpoints, deliveries, attempts } = fakes;
    const checkedUrls: string[] = [];
    const urls = { assertAllowed: (url: string) => Promise.resolve(void checkedUrls.push(url)) } as WebhookUrlPolicy;
    const sentNow: number[] = [];
    const dispatcher = {
      wake: () => undefined,
      sendNow: (id: number) => Promise.resolve(void sentNow.push(id)),
      endpointChanged: () => undefined,
    } as unknown as WebhookDispatcher;
    const { events, catalog } = outbox(fakes, dispatcher);
    const service = new WebhookEndpointsService(
      asReal(endpoints),
      asReal(deliveries),
      asReal(attempts),
      unitOfWork,
      urls,
      events,
      catalog,
      dispatcher,
      config,
      clock,
    );
    return { clock, checkedUrls, sentNow, endpoints, deliveries, attempts, service };
  };
  const notFound = (code: WebhooksErrorCode) => expect.objectContaining({ code }) as unknown as WebhooksError;

  it('registers an endpoint with a fresh secret and its events once each', async () => {
    const { checkedUrls, service } = setup();
    const endpoint = await service.create({ url: 'https://example.org/a', events: ['file.created', 'file.created'] });
    expect(endpoint).toMatchObject({ url: 'https://example.org/a', events: ['file.created'], active: true });
    expect(endpoint.secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(checkedUrls).toEqual(['https://example.org/a']);
  });

  it('refuses unknown event kinds before looking at the URL', async () => {
    const { checkedUrls, endpoints, service } = setup();
    await expect(service.create({ url: 'https://example.org/a', events: ['file.exploded'] })).rejects.toBeInstanceOf(
      ValidationFailedError,
    );
    await expect(service.create({ url: 'x', events: [PING_EVENT] })).rejects.toBeInstanceOf(ValidationFailedError);
    expect(checkedUrls).toEqual([]);
    expect(endpoints.rows).toEqual([]);
  });

  it('re-enabling an endpoint clears why it was disabled and its failure', async () => {
    const { endpoints, service } = setup();
    const { id } = endpoints.add({ active: false, disabledReason: 'gone', failingSince: 1 });
    await service.update(id, { active: true });
    expect(endpoints.byId(id)).toMatchObject({ active: true, disabledReason: null, failingSince: null });
  });

  it('keeps the previous secret valid for WEBHOOK_SECRET_GRACE after a rotation', async () => {
    const { clock, endpoints, service } = setup();
    const { id } = endpoints.add({ secret: 'whsec_old' });
    const rotated = await service.rotateSecret(id);
    expect(rotated.secret).not.toBe('whsec_old');
    expect(endpoints.byId(id)).toMatchObject({
      secret: rotated.secret,
      previousSecret: 'whsec_old',
      previousSecretExpiresAt: clock.nowMs() + 3_600_000,
    });
  });

  it('queues a ping to that endpoint alone', async () => {
    const { endpoints, deliveries, service } = setup();
    endpoints.add();
    const { id } = endpoints.add({ events: ['file.deleted'] });
    const { event_id } = await service.ping(id);
    expect(deliveries.rows).toEqual([expect.objectContaining({ eventId: event_id, endpointId: id })]);
  });

  it('pages the delivery log newest first, with each delivery’s attempts', async () => {
    const { endpoints, deliveries, attempts, service } = setup();
    const { id } = endpoints.add();
    const older = deliveries.add({ endpointId: id });
    deliveries.add({ endpointId: id });
    await attempts.insert({
      deliveryId: older.id,
      attemptedAt: 1,
      statusCode: 500,
      error: null,
      durationMs: 3,
      responseBody: null,
    });

    const page = await service.deliveries(id, undefined, 1, 1);

    expect(page).toMatchObject({ total: 2, limit: 1, offset: 1 });
    expect(page.items.map(({ delivery, attempts: log }) => [delivery.id, log.map((a) => a.statusCode)])).toEqual([
      [older.id, [500]],
    ]);
  });

  it('redelivers only a delivery of that endpoint', async () => {
    const { endpoints, deliveries, sentNow, service } = setup();
    const { id } = endpoints.add();
    const other = endpoints.add();
    const delivery = deliveries.add({ endpointId: id });

    await expect(service.redeliver(id, delivery.id)).resolves.toMatchObject({ id: delivery.id });
    await expect(service.redeliver(other.id, delivery.id)).rejects.toEqual(
      notFound(WebhooksErrorCode.DeliveryNotFound),
    );
    await expect(service.get(999)).rejects.toEqual(notFound(WebhooksErrorCode.EndpointNotFound));
    expect(sentNow).toEqual([delivery.id]);
  });
});
