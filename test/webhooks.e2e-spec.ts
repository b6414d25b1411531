import { jest } from '@jest/globals';
import { setTimeout as sleep } from 'node:timers/promises';
import { Logger } from '@nestjs/common';
import { verify } from '@octokit/webhooks-methods';
import { Clock, UnitOfWork } from '@file-fields/nest';
import { verifyWebhookSignature } from '../src/webhooks/sending/verify-webhook-signature.js';
import { WebhookEvents } from '../src/webhooks/events/webhook-events.service.js';
import { WebhookAttempt } from '../src/webhooks/entities/webhook-attempt.entity.js';
import { WebhookDelivery } from '../src/webhooks/entities/webhook-delivery.entity.js';
import { WebhookEvent } from '../src/webhooks/entities/webhook-event.entity.js';
import { WebhookAttemptsRepository } from '../src/webhooks/repositories/webhook-attempts.repository.js';
import { expectProblem, PNG } from './support/fixtures.js';
import { OFF_CONTRACT } from './support/openapi-contract.js';
import { createTestDatabase, startApp, startTestApp, type TestApp } from './support/test-app.js';
import { eventually, staysTrue } from './support/wait.js';
import { startReceiver, type TestReceiver } from './support/webhook-receiver.js';

const FAST = {
  WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
  WEBHOOK_RETRY_SCHEDULE: '100ms,150ms,200ms',
  WEBHOOK_TIMEOUT: '300ms',
  WEBHOOK_POLL_INTERVAL: '50ms',
  WEBHOOK_ENDPOINT_CONCURRENCY: '2',
};

describe('Webhooks: signed, retried, never lost', () => {
  let t: TestApp;
  let receiver: TestReceiver;
  let secret: string;
  let endpointId: number;

  const uploadCover = async () => {
    const { id } = (await t.http.post('/products').send({ name: 'hooked' }).expect(201)).body;
    return (await t.http.post(`/files/product/${id}/cover`).attach('file', PNG, 'c.png').expect(201)).body as {
      id: number;
    };
  };
  const deliveriesOf = async (status?: string) =>
    (await t.http.get(`/api/webhooks/${endpointId}/deliveries${status ? `?status=${status}` : ''}`).expect(200)).body;
  /** The delivery of an event once its state is `status`, waiting for the dispatcher to record it. */
  const deliveryOnce = (status: string, eventId: string) =>
    eventually(`the delivery of ${eventId} to be ${status}`, async () =>
      (await deliveriesOf(status)).items.find((d: { event_id: string }) => d.event_id === eventId),
    );

  beforeAll(async () => {
    t = await startTestApp(FAST);
    receiver = await startReceiver();
    const created = await t.http
      .post('/api/webhooks')
      .send({ url: receiver.url, events: ['*'], description: 'e2e' })
      .expect(201);
    expect(created.body.secret).toMatch(/^ffwh_/);
    ({ id: endpointId, secret } = created.body);
  });
  beforeEach(() => {
    receiver.received.length = 0;
    receiver.replies.length = 0;
  });
  afterEach(() => jest.restoreAllMocks());
  afterAll(async () => {
    await t.close({ destroy: true });
    await receiver.close();
  });

  it('delivers exactly one signed file.created per upload', async () => {
    const file = await uploadCover();
    const [hook] = await receiver.waitFor(1);
    await staysTrue('one webhook for one upload', () => receiver.received.length === 1, 300);
    expect(hook.body).toMatchObject({
      event: 'file.created',
      id: expect.stringMatching(/^evt_/),
      data: { file: { id: file.id } },
    });
    expect(hook.headers).toMatchObject({
      'content-type': 'application/json',
      'x-webhook-id': hook.body.id,
      'x-webhook-event': 'file.created',
      'x-webhook-timestamp': String(hook.body.timestamp),
      'user-agent': expect.stringMatching(/file-fields-service/),
    });
    expect(verifyWebhookSignature(hook.raw, hook.headers, [secret])).toEqual({
      valid: true,
      timestamp: hook.body.timestamp,
    });
    await expect(verify(secret, hook.raw, String(hook.headers['x-signature']))).resolves.toBe(true);
    expect(Math.abs(hook.body.timestamp - Date.now() / 1000)).toBeLessThan(60);
  });

  it('retries a receiver that fails twice, with the same event id, and records the success', async () => {
    receiver.replies.push(500, 503);
    await uploadCover();
    const hooks = await receiver.waitFor(3);
    expect(new Set(hooks.map((h) => h.body.id)).size).toBe(1);
    const delivery = await deliveryOnce('succeeded', hooks[0].body.id);
    expect(delivery).toMatchObject({ status: 'succeeded', attempts: 3 });
    expect(delivery.attempt_log.map((a: { status_code: number }) => a.status_code)).toEqual([500, 503, 200]);
    expect(delivery.attempt_log[0].response_body).toBe('answered 500');
  });

  it('retries a receiver that never answers in time, no sooner than 60 s later', async () => {
    receiver.replies.push('hang');
    await uploadCover();
    const [first] = await receiver.waitFor(1);
    const timedOut = await eventually('the timed-out attempt to be recorded', async () =>
      (await deliveriesOf('pending')).items.find(
        (d: { event_id: string; attempts: number }) => d.event_id === first.body.id && d.attempts === 1,
      ),
    );
    expect(
      Date.parse(timedOut.next_attempt_at) - Date.parse(timedOut.attempt_log[0].attempted_at),
    ).toBeGreaterThanOrEqual(60_000);
    // The schedule's own first delay is 100 ms: past it, an early retry would already have arrived.
    await staysTrue('no retry before 60 s', () => receiver.received.length === 1, 300);
    const clock = t.app.get(Clock);
    const realNow = clock.now.bind(clock);
    jest.spyOn(clock, 'now').mockImplementation(() => new Date(realNow().getTime() + 61_000));
    const hooks = await receiver.waitFor(2);
    expect(hooks[1].body.id).toBe(hooks[0].body.id);
  });

  it('emits nothing for an upload whose transaction rolls back', async () => {
    const events = t.app.get(WebhookEvents);
    const record = events.record.bind(events);
    jest.spyOn(events, 'record').mockImplementation(async (...args) => {
      await record(...args);
      throw new Error('simulated failure after the outbox write');
    });
    const before = await t.dataSource.getRepository(WebhookEvent).count();
    const { id } = (await t.http.post('/products').send({ name: 'rolled back' }).expect(201)).body;
    const logged = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    await t.http
      .post(`/files/product/${id}/cover`)
      .set(OFF_CONTRACT, 'a failure simulated inside the service: its 500 is in no contract')
      .attach('file', PNG, 'c.png')
      .expect(500);
    expect(logged).toHaveBeenCalledWith(expect.objectContaining({ err: expect.any(Error) }), 'Unhandled error');
    await staysTrue('no webhook for the rolled-back upload', () => receiver.received.length === 0, 300);
    expect(await t.dataSource.getRepository(WebhookEvent).count()).toBe(before);
    expect((await t.http.get(`/products/${id}`).expect(200)).body.cover).toBeNull();
  });

  it('sends a ping on demand, and redelivers an event with the same id', async () => {
    const { event_id } = (await t.http.post(`/api/webhooks/${endpointId}/ping`).expect(202)).body;
    const [ping] = await receiver.waitFor(1);
    expect(ping.body).toMatchObject({ id: event_id, event: 'webhook.ping' });
    const delivery = await deliveryOnce('succeeded', event_id);
    const redelivered = await t.http
      .post(`/api/webhooks/${endpointId}/deliveries/${delivery.id}/redeliver`)
      .expect(200);
    expect(redelivered.body).toMatchObject({ event_id, status: 'succeeded' });
    const hooks = await receiver.waitFor(2);
    expect(hooks[1].body.id).toBe(event_id);
  });

  it('lists a delivery and its attempt log from one snapshot, also while an attempt is being recorded', async () => {
    const { event_id } = (await t.http.post(`/api/webhooks/${endpointId}/ping`).expect(202)).body;
    const { id } = await deliveryOnce('succeeded', event_id);
    const listed = async () =>
      (await deliveriesOf()).items.find((d: { id: number }) => d.id === id) as {
        attempts: number;
        attempt_log: unknown[];
      };
    const before = await listed();
    expect(before.attempt_log).toHaveLength(before.attempts);

    // Another attempt is recorded (the delivery's count and its log row, in one transaction) between the page's
    // query and its attempts query.
    const attempts = t.app.get(WebhookAttemptsRepository);
    const ofDeliveries = attempts.ofDeliveries.bind(attempts);
    let recorded: Promise<unknown> | undefined;
    jest.spyOn(attempts, 'ofDeliveries').mockImplementation(async (ids, manager) => {
      recorded ??= t.app.get(UnitOfWork).run(async ({ manager: tx }) => {
        await tx.increment(WebhookDelivery, { id }, 'attempts', 1);
        await tx.insert(WebhookAttempt, { deliveryId: id, attemptedAt: Date.now(), statusCode: 200, durationMs: 1 });
      });
      await Promise.race([recorded, sleep(200)]);
      return ofDeliveries(ids, manager);
    });
    const during = await listed();
    expect(during.attempt_log).toHaveLength(during.attempts);
    await recorded;
    jest.restoreAllMocks();
    const after = await listed();
    expect(after.attempts).toBe(before.attempts + 1);
    expect(after.attempt_log).toHaveLength(after.attempts);
  });

  it('signs with the old secret on X-Signature and the new one on X-Signature-Next during the grace period', async () => {
    const rotated = (await t.http.post(`/api/webhooks/${endpointId}/rotate-secret`).expect(200)).body;
    expect(rotated.secret).not.toBe(secret);
    await t.http.post(`/api/webhooks/${endpointId}/ping`).expect(202);
    const [hook] = await receiver.waitFor(1);
    await expect(verify(secret, hook.raw, String(hook.headers['x-signature']))).resolves.toBe(true);
    await expect(verify(rotated.secret, hook.raw, String(hook.headers['x-signature-next']))).resolves.toBe(true);
    expect(verifyWebhookSignature(hook.raw, hook.headers, [secret]).valid).toBe(true);
    expect(verifyWebhookSignature(hook.raw, hook.headers, [rotated.secret]).valid).toBe(true);
    secret = rotated.secret;
  });

  it('disables an endpoint that answers 410 Gone, and records later events as skipped', async () => {
    const other = await startReceiver();
    const gone = (
      await t.http
        .post('/api/webhooks')
        .send({ url: other.url, events: ['file.created'] })
        .expect(201)
    ).body;
    other.replies.push(410);
    await uploadCover();
    await other.waitFor(1);
    const disabled = await eventually('the endpoint to be disabled', async () => {
      const { body } = await t.http.get(`/api/webhooks/${gone.id}`).expect(200);
      return body.active === false ? body : undefined;
    });
    expect(disabled.disabled_reason).toMatch(/410/);
    await uploadCover();
    await eventually('the event to be recorded as skipped', async () => {
      const skipped = (await t.http.get(`/api/webhooks/${gone.id}/deliveries?status=skipped`).expect(200)).body;
      return skipped.total === 1 ? skipped : undefined;
    });
    await staysTrue('nothing sent to the disabled endpoint', () => other.received.length === 1, 300);
    await other.close();
  });

  it('keeps at most WEBHOOK_ENDPOINT_CONCURRENCY (2) deliveries in flight to one endpoint', async () => {
    const slow = await startReceiver();
    const endpoint = (
      await t.http
        .post('/api/webhooks')
        .send({ url: slow.url, events: ['file.created'] })
        .expect(201)
    ).body;
    slow.replies.push('hang', 'hang', 'hang', 'hang', 'hang', 'hang');
    for (let i = 0; i < 5; i++) await uploadCover();
    await slow.waitFor(4);
    expect(slow.maxConcurrent()).toBe(2);
    await t.http.delete(`/api/webhooks/${endpoint.id}`).expect(204);
    await slow.close();
  });

  it('validates registrations', async () => {
    expectProblem(
      await t.http.post('/api/webhooks').send({ url: 'ftp://x', events: ['*'] }),
      400,
      'unsafe-webhook-url',
    );
    expectProblem(
      await t.http.post('/api/webhooks').send({ url: receiver.url, events: ['file.exploded'] }),
      400,
      'validation-failed',
    );
    expectProblem(await t.http.get('/api/webhooks/9999'), 404, 'webhook-not-found');
    expectProblem(
      await t.http.post(`/api/webhooks/${endpointId}/deliveries/9999/redeliver`),
      404,
      'delivery-not-found',
    );
  });
});

describe('Webhooks: durability and SSRF', () => {
  it('delivers an event committed by an instance that stopped before sending it', async () => {
    const receiver = await startReceiver();
    const database = await createTestDatabase();
    const first = await startApp(database, { ...FAST, WEBHOOK_DISPATCHER: 'off' });
    await first.http
      .post('/api/webhooks')
      .send({ url: receiver.url, events: ['file.created'] })
      .expect(201);
    const { id } = (await first.http.post('/products').send({ name: 'x' }).expect(201)).body;
    await first.http.post(`/files/product/${id}/gallery`).attach('file', PNG, 'g.png').expect(201);
    await first.close();
    expect(receiver.received).toHaveLength(0);
    const second = await startApp(database, FAST);
    const [hook] = await receiver.waitFor(1);
    expect(hook.body.event).toBe('file.created');
    await second.close({ destroy: true });
    await receiver.close();
  });

  it('refuses private, loopback and plain-http destinations unless allowed', async () => {
    const t = await startTestApp();
    try {
      for (const url of [
        'http://example.com/hook',
        'https://127.0.0.1/hook',
        'https://localhost/hook',
        'https://[::1]/x',
        'https://user:pw@example.com/',
      ]) {
        expectProblem(await t.http.post('/api/webhooks').send({ url, events: ['*'] }), 400, 'unsafe-webhook-url');
      }
      // A local receiver is refused for a reason a setting lifts: the detail names it.
      const local = await t.http.post('/api/webhooks').send({ url: 'http://127.0.0.1:4000/hooks', events: ['*'] });
      expect(expectProblem(local, 400, 'unsafe-webhook-url').detail).toContain('WEBHOOK_ALLOW_PRIVATE_NETWORKS=true');
    } finally {
      await t.close({ destroy: true });
    }
  });
});

// Several dispatchers sharing one database is a PostgreSQL deployment (SQLite is one process), so this suite is
// defined only when the e2e run targets PostgreSQL, as .ci/run's second pass does.
if (process.env.TEST_DATABASE_URL) {
  describe('Webhooks on PostgreSQL: two dispatcher instances over one database', () => {
    it('deliver 200 events with none missing and none sent twice', async () => {
      const receiver = await startReceiver();
      const database = await createTestDatabase();
      // Instances of one deployment share one issuer (and passport's strategy registry is per process). What is counted
      // is the lease between the two: a generous timeout keeps a slow answer on a loaded machine from being retried.
      const cluster = { ...FAST, WEBHOOK_TIMEOUT: '10s', OAUTH_ISSUER: 'http://files.cluster.test' };
      const a = await startApp(database, cluster);
      const b = await startApp(database, cluster);
      try {
        await a.http
          .post('/api/webhooks')
          .send({ url: receiver.url, events: ['file.created'] })
          .expect(201);
        const events = a.app.get(WebhookEvents);
        await a.app.get(UnitOfWork).run(async ({ manager }) => {
          for (let i = 0; i < 200; i++) await events.write(manager, 'file.created', { n: i });
        });
        const hooks = await receiver.waitFor(200, 30_000);
        await staysTrue('no event sent twice', () => receiver.received.length === 200, 500);
        const ids = receiver.received.map((hook) => hook.body.id);
        expect(ids).toHaveLength(200);
        expect(new Set(ids).size).toBe(200);
        expect(new Set(hooks.map((hook) => hook.body.data.n)).size).toBe(200);
      } finally {
        await b.close();
        await a.close({ destroy: true });
        await receiver.close();
      }
    });
  });
}
