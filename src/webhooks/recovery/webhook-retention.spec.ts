import { WebhookAttempt } from '../entities/webhook-attempt.entity.js';
import type { DeliveryStatus } from '../entities/webhook-delivery.entity.js';
import { asReal } from '../testing/in-memory-repositories.js';
import { webhookFakes } from '../testing/webhook-fixtures.js';
import { WebhookRetention } from './webhook-retention.js';

describe('WebhookRetention', () => {
  const DAY = 86_400_000;
  const setup = () => {
    const fakes = webhookFakes({ WEBHOOK_ATTEMPT_RETENTION: '30d', WEBHOOK_DELIVERY_RETENTION: '30d' });
    const { unitOfWork, attempts, deliveries, eventRows, config, clock } = fakes;
    const retention = new WebhookRetention(
      unitOfWork,
      asReal(attempts),
      asReal(deliveries),
      asReal(eventRows),
      config,
      clock,
    );
    return { ...fakes, retention, now: clock.nowMs() };
  };

  it('removes attempts older than WEBHOOK_ATTEMPT_RETENTION, at most once an hour', async () => {
    const { attempts, retention, clock, now } = setup();
    const attemptAt = async (attemptedAt: number) =>
      attempts.insert(Object.assign(new WebhookAttempt(), { deliveryId: 1, attemptedAt, durationMs: 1 }));
    await attemptAt(now - 31 * DAY);
    await attemptAt(now - 29 * DAY);

    await retention.removeExpired();
    expect(attempts.rows.map((row) => row.attemptedAt)).toEqual([now - 29 * DAY]);

    await attemptAt(now - 40 * DAY);
    clock.advance(59 * 60_000);
    await retention.removeExpired();
    expect(attempts.rows).toHaveLength(2);

    clock.advance(60_000);
    await retention.removeExpired();
    expect(attempts.rows.map((row) => row.attemptedAt)).toEqual([now - 29 * DAY]);
  });

  it('removes finished deliveries and the events left without one after WEBHOOK_DELIVERY_RETENTION', async () => {
    const { deliveries, eventRows, retention, now } = setup();
    const eventAt = (id: string, createdAt: number) =>
      eventRows.insert({ id, kind: 'file.deleted', data: { file: { original_name: 'payroll.pdf' } }, createdAt });
    const deliveryOf = (eventId: string, status: DeliveryStatus, createdAt: number, completedAt: number | null) =>
      deliveries.add({ endpointId: 1, eventId, status, createdAt, completedAt });
    await eventAt('evt_old', now - 40 * DAY);
    deliveryOf('evt_old', 'succeeded', now - 40 * DAY, now - 40 * DAY);
    deliveryOf('evt_old', 'skipped', now - 40 * DAY, null);
    await eventAt('evt_retrying', now - 40 * DAY);
    deliveryOf('evt_retrying', 'pending', now - 40 * DAY, null);
    await eventAt('evt_recent', now - 40 * DAY);
    deliveryOf('evt_recent', 'failed', now - 40 * DAY, now - 10 * DAY);
    await eventAt('evt_unsubscribed', now - 31 * DAY);
    await eventAt('evt_new', now - DAY);

    await retention.removeExpired();

    expect(deliveries.rows.map((row) => [row.eventId, row.status])).toEqual([
      ['evt_retrying', 'pending'],
      ['evt_recent', 'failed'],
    ]);
    expect(eventRows.rows.map((row) => row.id)).toEqual(['evt_retrying', 'evt_recent', 'evt_new']);
  });
});
