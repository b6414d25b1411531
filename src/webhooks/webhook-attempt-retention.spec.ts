import { WebhookAttempt } from './entities/webhook-attempt.entity.js';
import {
  asReal,
  FakeClock,
  FakeUnitOfWork,
  FakeWebhookAttemptsRepository,
  testConfig,
} from './testing/in-memory-repositories.js';
import { WebhookAttemptRetention } from './webhook-attempt-retention.js';

describe('WebhookAttemptRetention', () => {
  const DAY = 86_400_000;

  it('removes attempts older than WEBHOOK_ATTEMPT_RETENTION, at most once an hour', async () => {
    const clock = new FakeClock();
    const attempts = new FakeWebhookAttemptsRepository();
    const retention = new WebhookAttemptRetention(
      asReal(new FakeUnitOfWork()),
      asReal(attempts),
      testConfig({ WEBHOOK_ATTEMPT_RETENTION: '30d' }),
      clock,
    );
    const attemptAt = async (attemptedAt: number) =>
      attempts.insert(Object.assign(new WebhookAttempt(), { deliveryId: 1, attemptedAt, durationMs: 1 }));
    const now = clock.nowMs();
    await attemptAt(now - 31 * DAY);
    await attemptAt(now - 29 * DAY);

    await retention.removeExpiredAttempts();
    expect(attempts.rows.map((row) => row.attemptedAt)).toEqual([now - 29 * DAY]);

    await attemptAt(now - 40 * DAY);
    clock.advance(59 * 60_000);
    await retention.removeExpiredAttempts();
    expect(attempts.rows).toHaveLength(2);

    clock.advance(60_000);
    await retention.removeExpiredAttempts();
    expect(attempts.rows.map((row) => row.attemptedAt)).toEqual([now - 29 * DAY]);
  });
});
