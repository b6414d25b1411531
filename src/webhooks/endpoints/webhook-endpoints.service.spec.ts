import { ValidationFailedError } from '@file-fields/nest';
import { asReal } from '../testing/in-memory-repositories.js';
import { SYSTEM_PRINCIPAL } from '../../common/auth/principal.js';
import { endpointAccess, outbox, webhookFakes } from '../testing/webhook-fixtures.js';
import type { WebhookDispatcher } from '../delivery/webhook-dispatcher.js';
import { PING_LIMIT, WebhookEndpointsService } from './webhook-endpoints.service.js';
import { PING_EVENT } from '../events/webhook-events.service.js';
import type { WebhookUrlPolicy } from './webhook-url-policy.js';
import { WebhooksError, WebhooksErrorCode } from '../webhooks.errors.js';

describe('WebhookEndpointsService', () => {
  const setup = () => {
    const fakes = webhookFakes({ WEBHOOK_SECRET_GRACE: '1h' });
    const { clock, config, unitOfWork, endpoints, deliveries } = fakes;
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
      unitOfWork,
      urls,
      events,
      catalog,
      dispatcher,
      endpointAccess(fakes),
      config,
      clock,
    );
    return { clock, checkedUrls, sentNow, endpoints, deliveries, service };
  };
  const admin = SYSTEM_PRINCIPAL;
  const notFound = (code: WebhooksErrorCode) => expect.objectContaining({ code }) as unknown as WebhooksError;

  it('registers an endpoint with a fresh secret and its events once each', async () => {
    const { checkedUrls, service } = setup();
    const endpoint = await service.create(
      { url: 'https://example.org/a', events: ['file.created', 'file.created'] },
      admin,
    );
    expect(endpoint).toMatchObject({
      url: 'https://example.org/a',
      events: ['file.created'],
      active: true,
      signatureScheme: 'github',
    });
    expect(endpoint.secret).toMatch(/^ffwh_[A-Za-z0-9_-]{43}$/);
    expect(checkedUrls).toEqual(['https://example.org/a']);
  });

  it('registers a standard endpoint with a Standard Webhooks secret', async () => {
    const { service } = setup();
    const endpoint = await service.create(
      {
        url: 'https://example.org/a',
        events: ['*'],
        signature_scheme: 'standard',
      },
      admin,
    );
    expect(endpoint.signatureScheme).toBe('standard');
    expect(endpoint.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
  });

  it('refuses unknown event kinds before looking at the URL', async () => {
    const { checkedUrls, endpoints, service } = setup();
    await expect(
      service.create({ url: 'https://example.org/a', events: ['file.exploded'] }, admin),
    ).rejects.toBeInstanceOf(ValidationFailedError);
    await expect(service.create({ url: 'x', events: [PING_EVENT] }, admin)).rejects.toBeInstanceOf(
      ValidationFailedError,
    );
    expect(checkedUrls).toEqual([]);
    expect(endpoints.rows).toEqual([]);
  });

  it('keeps a filter by known attachment types, changed or removed by an update', async () => {
    const { endpoints, service } = setup();
    const endpoint = await service.create(
      {
        url: 'https://example.org/a',
        events: ['*'],
        filter: { attachment_types: ['product'] },
      },
      admin,
    );
    expect(endpoints.byId(endpoint.id).filter).toEqual({ attachment_types: ['product'] });

    await service.update(endpoint.id, { filter: { attachment_types: ['article', 'product'] } }, admin);
    expect(endpoints.byId(endpoint.id).filter).toEqual({ attachment_types: ['article', 'product'] });
    await service.update(endpoint.id, { description: 'kept' }, admin);
    expect(endpoints.byId(endpoint.id).filter).toEqual({ attachment_types: ['article', 'product'] });
    await service.update(endpoint.id, { filter: null }, admin);
    expect(endpoints.byId(endpoint.id).filter).toBeNull();
  });

  it('refuses a filter naming an attachment type nothing has', async () => {
    const { endpoints, service } = setup();
    const brochures = { attachment_types: ['brochure'] };
    await expect(
      service.create({ url: 'https://example.org/a', events: ['*'], filter: brochures }, admin),
    ).rejects.toEqual(
      expect.objectContaining({ violations: [expect.objectContaining({ field: 'filter.attachment_types' })] }),
    );
    const { id } = endpoints.add();
    await expect(service.update(id, { filter: brochures }, admin)).rejects.toBeInstanceOf(ValidationFailedError);
    expect(endpoints.byId(id).filter).toBeNull();
  });

  it('re-enabling an endpoint clears why it was disabled and its failure', async () => {
    const { endpoints, service } = setup();
    const { id } = endpoints.add({ active: false, disabledReason: 'gone', failingSince: 1 });
    await service.update(id, { active: true }, admin);
    expect(endpoints.byId(id)).toMatchObject({ active: true, disabledReason: null, failingSince: null });
  });

  it('keeps the previous secret valid for WEBHOOK_SECRET_GRACE after a rotation', async () => {
    const { clock, endpoints, service } = setup();
    const { id } = endpoints.add({ secret: 'whsec_old' });
    const rotated = await service.rotateSecret(id, admin);
    expect(rotated.secret).toMatch(/^ffwh_/);
    expect(endpoints.byId(id)).toMatchObject({
      secret: rotated.secret,
      signatureScheme: 'github',
      previousSecret: 'whsec_old',
      previousSignatureScheme: 'github',
      previousSecretExpiresAt: clock.nowMs() + 3_600_000,
    });
  });

  it('changes the scheme only with a rotation, keeping the old secret in the old scheme for the grace period', async () => {
    const { clock, endpoints, service } = setup();
    const { id } = endpoints.add({ secret: 'whsec_old' });

    await expect(service.update(id, { signature_scheme: 'standard' }, admin)).rejects.toEqual(
      expect.objectContaining({ code: WebhooksErrorCode.SchemeChangeNeedsRotation }),
    );
    await expect(
      service.update(id, { signature_scheme: 'github', description: 'same scheme' }, admin),
    ).resolves.toMatchObject({
      description: 'same scheme',
    });
    expect(endpoints.byId(id)).toMatchObject({ secret: 'whsec_old', signatureScheme: 'github' });

    const rotated = await service.rotateSecret(id, admin, 'standard');
    expect(rotated.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(endpoints.byId(id)).toMatchObject({
      signatureScheme: 'standard',
      previousSecret: 'whsec_old',
      previousSignatureScheme: 'github',
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

  it('refuses more than PING_LIMIT pings of one endpoint within an hour, with Retry-After', async () => {
    const { clock, endpoints, service } = setup();
    const { id } = endpoints.add();
    const other = endpoints.add();
    for (let i = 0; i < PING_LIMIT; i++) {
      await service.ping(id);
      clock.advance(60_000);
    }
    const refused = await service.ping(id).catch((error: unknown) => error as WebhooksError);
    expect(refused).toMatchObject({ status: 429, code: WebhooksErrorCode.TooManyPings });
    // The oldest of the ten was sent ten minutes ago: it leaves the window in fifty.
    expect((refused as WebhooksError).headers['Retry-After']).toBe(String(50 * 60));
    await expect(service.ping(other.id)).resolves.toBeDefined();
    clock.advance(50 * 60_000);
    await expect(service.ping(id)).resolves.toBeDefined();
  });

  it('redelivers only a delivery of that endpoint', async () => {
    const { endpoints, deliveries, sentNow, service } = setup();
    const { id } = endpoints.add();
    const other = endpoints.add();
    const delivery = deliveries.add({ endpointId: id });

    await expect(service.redeliver(id, delivery.id, admin)).resolves.toBeUndefined();
    await expect(service.redeliver(other.id, delivery.id, admin)).rejects.toEqual(
      notFound(WebhooksErrorCode.DeliveryNotFound),
    );
    await expect(service.get(999)).rejects.toEqual(notFound(WebhooksErrorCode.EndpointNotFound));
    expect(sentNow).toEqual([delivery.id]);
  });
});
