import { jest } from '@jest/globals';
import { Logger } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { endpointHealth, webhookFakes } from '../testing/webhook-fixtures.js';
import { ENDPOINT_DISABLED_EVENT, ENDPOINT_FAILING_EVENT } from './webhook-endpoint-notices.js';
import { FAILING_TOO_LONG_REASON, GONE_REASON } from './webhook-endpoint-health.js';

describe('WebhookEndpointHealth', () => {
  const DAY = 86_400_000;
  const setup = () => {
    const fakes = webhookFakes({ WEBHOOK_DISABLE_AFTER: '5d' });
    const committed: Array<() => Promise<unknown>> = [];
    const tx = { manager: {} as EntityManager, afterCommit: (task: () => Promise<unknown>) => committed.push(task) };
    const commit = async () => {
      for (const task of committed.splice(0)) await task();
    };
    return { ...fakes, health: endpointHealth(fakes), tx, commit };
  };
  const failed = { delivered: false, gone: false };
  let warned: ReturnType<typeof jest.spyOn>;
  beforeEach(() => {
    warned = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
  });
  afterEach(() => jest.restoreAllMocks());
  const disabledEvents = (eventRows: ReturnType<typeof setup>['eventRows']) =>
    eventRows.rows.filter((event) => event.kind === ENDPOINT_DISABLED_EVENT);

  it('notes when failures started, and keeps that time while they go on', async () => {
    const { endpoints, health, tx } = setup();
    const endpoint = endpoints.add();
    await health.afterAttempt(endpoint, failed, 1_000, tx);
    expect(endpoints.byId(endpoint.id)).toMatchObject({ failingSince: 1_000, active: true });

    await health.afterAttempt(endpoints.byId(endpoint.id), failed, 1_000 + DAY, tx);
    expect(endpoints.byId(endpoint.id)).toMatchObject({ failingSince: 1_000, active: true, disabledReason: null });
  });

  it('disables the endpoint once every delivery failed for WEBHOOK_DISABLE_AFTER', async () => {
    const { endpoints, health, tx } = setup();
    const endpoint = endpoints.add({ failingSince: 1_000 });
    await health.afterAttempt(endpoint, failed, 1_000 + 5 * DAY - 1, tx);
    expect(endpoints.byId(endpoint.id).active).toBe(true);

    await health.afterAttempt(endpoint, failed, 1_000 + 5 * DAY, tx);
    expect(endpoints.byId(endpoint.id)).toMatchObject({ active: false, disabledReason: FAILING_TOO_LONG_REASON });
  });

  it('warns once after WEBHOOK_WARN_AFTER, and disables only at an attempt after the warning', async () => {
    const { endpoints, health, tx, commit, eventRows } = setup();
    const endpoint = endpoints.add({ failingSince: 1_000 });
    await health.afterAttempt(endpoint, failed, 1_000 + DAY - 1, tx);
    expect(endpoints.byId(endpoint.id).warnedAt).toBeNull();

    // Past both thresholds at once: warned now, disabled at the next failure only.
    await health.afterAttempt(endpoint, failed, 1_000 + 6 * DAY, tx);
    expect(endpoints.byId(endpoint.id)).toMatchObject({ active: true, warnedAt: 1_000 + 6 * DAY });
    await health.afterAttempt(endpoint, failed, 1_000 + 6 * DAY + 1, tx);
    expect(endpoints.byId(endpoint.id)).toMatchObject({ active: false, disabledReason: FAILING_TOO_LONG_REASON });
    await commit();
    const failing = eventRows.rows.filter((event) => event.kind === ENDPOINT_FAILING_EVENT);
    expect(failing.map((event) => event.data)).toEqual([
      {
        endpoint_id: endpoint.id,
        origin: 'https://example.org',
        since: new Date(1_000).toISOString(),
        disabled_at: new Date(1_000 + 5 * DAY).toISOString(),
      },
    ]);
    expect(disabledEvents(eventRows)).toHaveLength(1);
  });

  it('disables the endpoint at once when it answers 410 Gone', async () => {
    const { endpoints, health, tx } = setup();
    const endpoint = endpoints.add();
    await health.afterAttempt(endpoint, { delivered: false, gone: true }, 1_000, tx);
    expect(endpoints.byId(endpoint.id)).toMatchObject({
      active: false,
      disabledReason: GONE_REASON,
      failingSince: 1_000,
    });
  });

  it('clears the failure on a success', async () => {
    const { endpoints, health, tx } = setup();
    const endpoint = endpoints.add({ failingSince: 1_000 });
    await health.afterAttempt(endpoint, { delivered: true, gone: false }, 2_000, tx);
    expect(endpoints.byId(endpoint.id)).toMatchObject({ failingSince: null, active: true });
  });

  it('tells every other subscribed endpoint, then the audit trail, when it disables one', async () => {
    const { endpoints, deliveries, eventRows, audit, health, tx, commit } = setup();
    // Slack's incoming webhooks carry their token in the path: the others are told the origin only.
    const url = 'https://hooks.example.org:8443/services/T000/B000/s3cret?token=s3cret#s3cret';
    const failing = endpoints.add({ url, events: ['*'], failingSince: 1_000, warnedAt: 1_000 + DAY });
    const all = endpoints.add({ events: ['*'] });
    const told = endpoints.add({ events: [ENDPOINT_DISABLED_EVENT] });
    endpoints.add({ events: ['file.created'] });
    const filtered = endpoints.add({ events: ['*'], filter: { attachment_types: ['product'] } });

    await health.afterAttempt(failing, failed, 1_000 + 5 * DAY, tx);

    const [event] = disabledEvents(eventRows);
    expect(event.data).toEqual({
      endpoint_id: failing.id,
      origin: 'https://hooks.example.org:8443',
      reason: 'failing',
      message: FAILING_TOO_LONG_REASON,
      since: new Date(1_000).toISOString(),
    });
    expect(deliveries.rows.map((delivery) => delivery.endpointId)).toEqual([all.id, told.id, filtered.id]);
    expect(audit).toEqual([]);
    expect(warned).not.toHaveBeenCalled();

    await commit();
    expect(warned).toHaveBeenCalledWith(
      { endpoint: failing.id, reason: 'failing' },
      `Webhook endpoint ${failing.id} disabled: ${FAILING_TOO_LONG_REASON}`,
    );
    expect(audit).toEqual([
      {
        actor: 'system',
        action: 'webhook-endpoint.disable',
        targetType: 'webhook-endpoint',
        targetId: failing.id,
        details: { reason: 'failing' },
      },
    ]);
  });

  it('tells once, whatever attempts end after the one that disabled it', async () => {
    const { endpoints, eventRows, health, tx } = setup();
    const endpoint = endpoints.add();
    endpoints.add({ events: ['*'] });
    // Two attempts read from the same copy of the endpoint, both answered 410.
    await health.afterAttempt({ ...endpoint }, { delivered: false, gone: true }, 1_000, tx);
    await health.afterAttempt({ ...endpoint }, { delivered: false, gone: true }, 1_001, tx);
    expect(disabledEvents(eventRows)).toHaveLength(1);

    // Disabled by hand, it is not disabled again by an attempt that was under way.
    const byHand = endpoints.add({ active: false });
    await health.afterAttempt(byHand, { delivered: false, gone: true }, 1_002, tx);
    expect(disabledEvents(eventRows)).toHaveLength(1);
    expect(endpoints.byId(byHand.id).disabledReason).toBeNull();
  });
});
