import { jest } from '@jest/globals';
import { Logger } from '@nestjs/common';
import { attemptRecorder, THIS_INSTANCE, webhookFakes } from '../testing/webhook-fixtures.js';
import { GONE_REASON } from './webhook-endpoint-health.js';
import type { SendResult } from '../sending/webhook-sender.js';

describe('WebhookAttemptRecorder', () => {
  // Disabling an endpoint logs a warning (WebhookEndpointHealth's spec checks it).
  beforeEach(() => jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined));
  afterEach(() => jest.restoreAllMocks());
  const setup = () => {
    const fakes = webhookFakes({ WEBHOOK_RETRY_SCHEDULE: '5s,5m' });
    const { clock, deliveries, attempts, endpoints } = fakes;
    const recorder = attemptRecorder(fakes);
    const now = clock.nowMs();
    const endpoint = endpoints.add();
    const leased = (fields: { attempts?: number; leaseOwner?: string; recoveredAt?: number } = {}) =>
      deliveries.add({
        endpointId: endpoint.id,
        nextAttemptAt: now,
        leaseOwner: THIS_INSTANCE,
        leaseUntil: now + 1,
        ...fields,
      });
    return { deliveries, attempts, endpoints, recorder, endpoint, leased, now };
  };
  const answered = (statusCode: number, more: Partial<SendResult> = {}): SendResult => ({
    statusCode,
    body: `answered ${statusCode}`,
    durationMs: 12,
    ...more,
  });

  it('stores a failed attempt and schedules the retry the policy gives, releasing the lease', async () => {
    const { deliveries, attempts, endpoints, recorder, endpoint, leased, now } = setup();
    const delivery = leased();

    await expect(recorder.recordAttempt(delivery, endpoint, answered(500), false)).resolves.toBe(true);

    expect(deliveries.byId(delivery.id)).toMatchObject({
      status: 'pending',
      attempts: 1,
      nextAttemptAt: now + 5_000,
      lastStatusCode: 500,
      completedAt: null,
      leaseOwner: null,
      leaseUntil: null,
    });
    expect(attempts.rows).toEqual([
      expect.objectContaining({
        deliveryId: delivery.id,
        attemptedAt: now,
        statusCode: 500,
        responseBody: 'answered 500',
        durationMs: 12,
      }),
    ]);
    expect(endpoints.byId(endpoint.id).failingSince).toBe(now);
  });

  it('waits at least 60 s after a timeout, and gives up once the schedule is exhausted', async () => {
    const { deliveries, recorder, endpoint, leased, now } = setup();
    const timedOut = leased();
    await recorder.recordAttempt(timedOut, endpoint, { error: 'ETIMEDOUT', timedOut: true, durationMs: 1 }, false);
    expect(deliveries.byId(timedOut.id)).toMatchObject({ status: 'pending', nextAttemptAt: now + 60_000 });

    const last = leased({ attempts: 2 });
    await recorder.recordAttempt(last, endpoint, answered(503), false);
    expect(deliveries.byId(last.id)).toMatchObject({ status: 'failed', attempts: 3, completedAt: now });
  });

  it('marks a 2xx as succeeded and the endpoint healthy again', async () => {
    const { deliveries, endpoints, recorder, endpoint, leased, now } = setup();
    endpoints.byId(endpoint.id).failingSince = now - 1_000;
    const delivery = leased();

    await recorder.recordAttempt(delivery, endpoint, answered(204), false);

    expect(deliveries.byId(delivery.id)).toMatchObject({ status: 'succeeded', attempts: 1, completedAt: now });
    expect(endpoints.byId(endpoint.id).failingSince).toBeNull();
  });

  it('never retries a manual attempt or a 410 Gone, which also disables the endpoint', async () => {
    const { deliveries, endpoints, recorder, endpoint, leased } = setup();
    const manual = leased();
    await recorder.recordAttempt(manual, endpoint, answered(500), true);
    expect(deliveries.byId(manual.id).status).toBe('failed');

    const gone = leased();
    await recorder.recordAttempt(gone, endpoint, answered(410), false);
    expect(deliveries.byId(gone.id).status).toBe('failed');
    expect(endpoints.byId(endpoint.id)).toMatchObject({ active: false, disabledReason: GONE_REASON });
  });

  it('gives a delivery re-queued by a recovery one attempt, never retried', async () => {
    const { deliveries, recorder, endpoint, leased, now } = setup();
    const recovered = leased({ recoveredAt: now - 1_000 });

    await recorder.recordAttempt(recovered, endpoint, answered(500), false);

    expect(deliveries.byId(recovered.id)).toMatchObject({ status: 'failed', attempts: 1, completedAt: now });
  });

  it('stores nothing when the lease was lost to another instance', async () => {
    const { deliveries, attempts, endpoints, recorder, endpoint, leased } = setup();
    const delivery = leased({ leaseOwner: 'instance-b' });

    await expect(recorder.recordAttempt(delivery, endpoint, answered(410), false)).resolves.toBe(false);

    expect(deliveries.byId(delivery.id)).toMatchObject({ status: 'pending', attempts: 0, leaseOwner: 'instance-b' });
    expect(attempts.rows).toEqual([]);
    expect(endpoints.byId(endpoint.id)).toMatchObject({ active: true, failingSince: null });
  });

  it('keeps a delivery to a disabled endpoint as skipped, while the lease is held', async () => {
    const { deliveries, attempts, recorder, leased, now } = setup();
    const delivery = leased();
    const lost = leased({ leaseOwner: 'instance-b' });

    await expect(recorder.recordSkipped(delivery)).resolves.toBe(true);
    await expect(recorder.recordSkipped(lost)).resolves.toBe(false);

    expect(deliveries.byId(delivery.id)).toMatchObject({ status: 'skipped', completedAt: now, leaseOwner: null });
    expect(deliveries.byId(lost.id).status).toBe('pending');
    expect(attempts.rows).toEqual([]);
  });
});
