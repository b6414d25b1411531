import type { EntityManager } from 'typeorm';
import { asReal, FakeWebhookEndpointsRepository, testConfig } from './testing/in-memory-repositories.js';
import { FAILING_TOO_LONG_REASON, GONE_REASON, WebhookEndpointHealth } from './webhook-endpoint-health.js';

describe('WebhookEndpointHealth', () => {
  const DAY = 86_400_000;
  const manager = {} as EntityManager;
  const setup = () => {
    const endpoints = new FakeWebhookEndpointsRepository();
    const health = new WebhookEndpointHealth(asReal(endpoints), testConfig({ WEBHOOK_DISABLE_AFTER: '5d' }));
    return { endpoints, health };
  };
  const failed = { delivered: false, gone: false };

  it('notes when failures started, and keeps that time while they go on', async () => {
    const { endpoints, health } = setup();
    const endpoint = endpoints.add();
    await health.afterAttempt(endpoint, failed, 1_000, manager);
    expect(endpoints.byId(endpoint.id)).toMatchObject({ failingSince: 1_000, active: true });

    await health.afterAttempt(endpoints.byId(endpoint.id), failed, 1_000 + DAY, manager);
    expect(endpoints.byId(endpoint.id)).toMatchObject({ failingSince: 1_000, active: true, disabledReason: null });
  });

  it('disables the endpoint once every delivery failed for WEBHOOK_DISABLE_AFTER', async () => {
    const { endpoints, health } = setup();
    const endpoint = endpoints.add({ failingSince: 1_000 });
    await health.afterAttempt(endpoint, failed, 1_000 + 5 * DAY - 1, manager);
    expect(endpoints.byId(endpoint.id).active).toBe(true);

    await health.afterAttempt(endpoint, failed, 1_000 + 5 * DAY, manager);
    expect(endpoints.byId(endpoint.id)).toMatchObject({ active: false, disabledReason: FAILING_TOO_LONG_REASON });
  });

  it('disables the endpoint at once when it answers 410 Gone', async () => {
    const { endpoints, health } = setup();
    const endpoint = endpoints.add();
    await health.afterAttempt(endpoint, { delivered: false, gone: true }, 1_000, manager);
    expect(endpoints.byId(endpoint.id)).toMatchObject({
      active: false,
      disabledReason: GONE_REASON,
      failingSince: 1_000,
    });
  });

  it('clears the failure on a success', async () => {
    const { endpoints, health } = setup();
    const endpoint = endpoints.add({ failingSince: 1_000 });
    await health.afterAttempt(endpoint, { delivered: true, gone: false }, 2_000, manager);
    expect(endpoints.byId(endpoint.id)).toMatchObject({ failingSince: null, active: true });
  });
});
