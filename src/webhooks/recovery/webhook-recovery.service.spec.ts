import { asReal } from '../testing/in-memory-repositories.js';
import { webhookFakes } from '../testing/webhook-fixtures.js';
import type { WebhookDispatcher } from '../delivery/webhook-dispatcher.js';
import { recoveryBatch, WebhookRecovery } from './webhook-recovery.service.js';
import { WebhooksErrorCode } from '../webhooks.errors.js';

describe('WebhookRecovery', () => {
  const HOUR = 3_600_000;
  const setup = () => {
    const fakes = webhookFakes();
    const { clock, unitOfWork, endpoints, deliveries } = fakes;
    let wakes = 0;
    const dispatcher = { wake: () => void wakes++ } as WebhookDispatcher;
    const recovery = new WebhookRecovery(unitOfWork, asReal(endpoints), asReal(deliveries), dispatcher, clock);
    const now = clock.nowMs();
    const endpoint = endpoints.add();
    const at = (ms: number) => new Date(ms).toISOString();
    return { ...fakes, recovery, now, endpoint, at, wakes: () => wakes };
  };
  const refusedWith = (code: WebhooksErrorCode) => expect.objectContaining({ code }) as unknown as Error;

  it('re-queues the failed and skipped deliveries of the window, due in the order they were created', async () => {
    const { deliveries, recovery, now, endpoint, at, wakes } = setup();
    const old = deliveries.add({ endpointId: endpoint.id, status: 'failed', createdAt: now - 3 * HOUR });
    const skipped = deliveries.add({ endpointId: endpoint.id, status: 'skipped', createdAt: now - HOUR, attempts: 0 });
    const failed = deliveries.add({
      endpointId: endpoint.id,
      status: 'failed',
      createdAt: now - 2 * HOUR,
      attempts: 9,
    });
    const done = deliveries.add({ endpointId: endpoint.id, status: 'succeeded', createdAt: now - HOUR });
    const other = deliveries.add({ endpointId: 99, status: 'failed', createdAt: now - HOUR });

    const result = await recovery.recover(endpoint.id, { since: at(now - 2 * HOUR) });

    expect(result).toEqual({ requeued: 2, remaining: 0, nextSince: null, since: now - 2 * HOUR, until: now });
    expect(deliveries.byId(failed.id)).toMatchObject({
      status: 'pending',
      attempts: 9,
      nextAttemptAt: now - 2 * HOUR,
      recoveredAt: now,
      completedAt: null,
    });
    expect(deliveries.byId(skipped.id)).toMatchObject({
      status: 'pending',
      nextAttemptAt: now - HOUR,
      recoveredAt: now,
    });
    expect([old, done, other].map(({ id }) => deliveries.byId(id).status)).toEqual(['failed', 'succeeded', 'failed']);
    expect(wakes()).toBe(1);
  });

  it('keeps to the statuses and the end of the window asked for, and to what no one is sending', async () => {
    const { deliveries, recovery, now, endpoint, at } = setup();
    const skipped = deliveries.add({ endpointId: endpoint.id, status: 'skipped', createdAt: now - 3 * HOUR });
    deliveries.add({ endpointId: endpoint.id, status: 'failed', createdAt: now - 3 * HOUR });
    deliveries.add({ endpointId: endpoint.id, status: 'skipped', createdAt: now - HOUR });
    // Being redelivered by hand at this moment.
    deliveries.add({ endpointId: endpoint.id, status: 'skipped', createdAt: now - 3 * HOUR, leaseUntil: now + 1 });

    const result = await recovery.recover(endpoint.id, {
      since: at(now - 4 * HOUR),
      until: at(now - 2 * HOUR),
      status: ['skipped'],
    });

    expect(result.requeued).toBe(1);
    expect(deliveries.rows.filter((row) => row.status === 'pending').map((row) => row.id)).toEqual([skipped.id]);
  });

  it('refuses an unknown endpoint, a disabled one, and a second recovery while the first still waits', async () => {
    const { endpoints, deliveries, recovery, now, endpoint, at, wakes } = setup();
    const since = at(now - HOUR);
    await expect(recovery.recover(999, { since })).rejects.toEqual(refusedWith(WebhooksErrorCode.EndpointNotFound));
    const disabled = endpoints.add({ active: false });
    await expect(recovery.recover(disabled.id, { since })).rejects.toEqual(
      refusedWith(WebhooksErrorCode.EndpointDisabled),
    );

    const first = deliveries.add({ endpointId: endpoint.id, status: 'failed', createdAt: now - 1 });
    await recovery.recover(endpoint.id, { since });
    await expect(recovery.recover(endpoint.id, { since })).rejects.toEqual(
      refusedWith(WebhooksErrorCode.RecoveryRunning),
    );
    // Its one attempt made, the recovery is over.
    deliveries.byId(first.id).status = 'failed';
    await expect(recovery.recover(endpoint.id, { since })).resolves.toMatchObject({ requeued: 1 });
    expect(wakes()).toBe(2);
  });

  it('wakes no one when there is nothing to send', async () => {
    const { recovery, now, endpoint, at, wakes } = setup();
    await expect(recovery.recover(endpoint.id, { since: at(now - HOUR) })).resolves.toMatchObject({ requeued: 0 });
    expect(wakes()).toBe(0);
  });
});

describe('recoveryBatch', () => {
  const created = (...times: number[]) => times.map((createdAt, id) => ({ id, createdAt }));

  it('takes everything within the limit', () => {
    expect(recoveryBatch(created(1, 2, 3), 3)).toEqual({ batch: created(1, 2, 3), nextSince: null });
  });

  it('ends before the millisecond the rest starts in, which the next call starts from', () => {
    const found = created(1, 2, 3, 3, 4);
    expect(recoveryBatch(found, 4)).toEqual({ batch: found.slice(0, 4), nextSince: 4 });
    expect(recoveryBatch(found, 3)).toEqual({ batch: found.slice(0, 2), nextSince: 3 });
    expect(recoveryBatch(found, 2)).toEqual({ batch: found.slice(0, 2), nextSince: 3 });
  });

  it('splits a millisecond only when it alone holds more than the limit', () => {
    const found = created(5, 5, 5);
    expect(recoveryBatch(found, 2)).toEqual({ batch: found.slice(0, 2), nextSince: 5 });
  });
});
