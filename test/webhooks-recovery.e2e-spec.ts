import { WebhookDelivery } from '../src/webhooks/entities/webhook-delivery.entity.js';
import { WebhookEvent } from '../src/webhooks/entities/webhook-event.entity.js';
import { expectProblem, PNG } from './support/fixtures.js';
import { createTestDatabase, startApp, startTestApp, type TestApp } from './support/test-app.js';
import { eventually, staysTrue } from './support/wait.js';
import { startReceiver, type ReceivedWebhook, type TestReceiver } from './support/webhook-receiver.js';

/**
 * One endpoint's requests at a time, so the order deliveries are sent in is the order they arrive in; an endpoint
 * failing for 300 ms is disabled (the retries of one delivery span at least 360 ms).
 */
const FAST = {
  WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
  WEBHOOK_RETRY_SCHEDULE: '100ms,150ms,200ms',
  // No test here makes a receiver hang. A short timeout would only turn a slow answer on a loaded machine into a
  // failed attempt, and 300 ms of those disable the endpoint before the test's own reply reaches it (seen once in CI).
  WEBHOOK_TIMEOUT: '10s',
  WEBHOOK_POLL_INTERVAL: '50ms',
  WEBHOOK_ENDPOINT_CONCURRENCY: '1',
  WEBHOOK_DISABLE_AFTER: '300ms',
  WEBHOOK_WARN_AFTER: '150ms',
};

const DISABLED = 'webhook.endpoint.disabled';

interface DeliveryBody {
  id: number;
  event_id: string;
  status: string;
  attempts: number;
}

/** The part of JSON Schema the catalog's schemas use. */
interface Schema {
  type?: string;
  format?: string;
  enum?: unknown[];
  required?: string[];
  properties?: Record<string, Schema>;
  items?: Schema;
}

/** Where `value` departs from `schema`, including properties the schema does not declare (it must list them all). */
function violations(schema: Schema, value: unknown, at = '$'): string[] {
  const type = Array.isArray(value)
    ? 'array'
    : value === null
      ? 'null'
      : Number.isInteger(value)
        ? 'integer'
        : typeof value;
  if (schema.type && schema.type !== type && !(schema.type === 'number' && type === 'integer'))
    return [`${at}: ${type} where ${schema.type} is expected`];
  if (schema.enum && !schema.enum.includes(value))
    return [`${at}: ${String(value)} is not one of ${schema.enum.map(String).join(', ')}`];
  if (schema.format === 'date-time' && Number.isNaN(Date.parse(String(value)))) return [`${at}: not a date-time`];
  if (type === 'array')
    return (value as unknown[]).flatMap((item, i) => violations(schema.items ?? {}, item, `${at}[${i}]`));
  if (type !== 'object') return [];
  const object = value as Record<string, unknown>;
  const declared = schema.properties ?? {};
  return [
    ...(schema.required ?? []).filter((key) => !(key in object)).map((key) => `${at}.${key}: missing`),
    ...Object.keys(object)
      .filter((key) => !(key in declared))
      .map((key) => `${at}.${key}: not in the schema`),
    ...Object.entries(declared).flatMap(([key, sub]) =>
      key in object ? violations(sub, object[key], `${at}.${key}`) : [],
    ),
  ];
}

describe('Webhooks: recovery, self-healing, event catalog and filters', () => {
  let t: TestApp;
  const receivers: TestReceiver[] = [];

  const receiver = async () => {
    const started = await startReceiver();
    receivers.push(started);
    return started;
  };
  const register = async (to: TestReceiver, events: string[], more: Record<string, unknown> = {}) =>
    (
      await t.http
        .post('/api/webhooks')
        .send({ url: to.url, events, ...more })
        .expect(201)
    ).body as { id: number };
  const createOf = async (type: 'products' | 'articles') =>
    (
      await t.http
        .post(`/${type}`)
        .send(type === 'products' ? { name: 'p' } : { title: 'a' })
        .expect(201)
    ).body.id as number;
  /** Adds a file (201), or replaces a single field's file (200). */
  const upload = async (type: string, id: number, field: string) => {
    const res = await t.http.post(`/files/${type}/${id}/${field}`).attach('file', PNG, 'x.png');
    expect([200, 201]).toContain(res.status);
    return res.body as { id: number };
  };
  const deliveriesOf = async (endpointId: number, status?: string) =>
    (
      await t.http
        .get(`/api/webhooks/${endpointId}/deliveries?limit=100${status ? `&status=${status}` : ''}`)
        .expect(200)
    ).body as { items: DeliveryBody[]; total: number };
  const endpointOnce = (id: number, what: string, holds: (endpoint: Record<string, unknown>) => boolean) =>
    eventually(`endpoint ${id}: ${what}`, async () => {
      const { body } = await t.http.get(`/api/webhooks/${id}`).expect(200);
      return holds(body) ? (body as Record<string, unknown>) : undefined;
    });
  const eventsOf = (hooks: ReceivedWebhook[], kind: string) => hooks.filter((hook) => hook.body.event === kind);
  const disableEvents = async () =>
    (await t.http.get('/api/audit-events?action=webhook-endpoint.disable&limit=100').expect(200)).body.items as Array<{
      target_id: string;
    }>;

  beforeAll(async () => {
    t = await startTestApp(FAST);
  });
  afterAll(async () => {
    await t.close({ destroy: true });
    for (const started of receivers) await started.close();
  });

  // Disabled on 410, told to the others and the audit trail; re-enabled, a recovery sends what failed and was skipped.
  it('heals an endpoint that answered 410: notice, re-enable, recovery in order, one attempt each', async () => {
    const [gone, watcher, everything, bystander] = [
      await receiver(),
      await receiver(),
      await receiver(),
      await receiver(),
    ];
    const endpoint = await register(gone, ['*']);
    const watching = await register(watcher, [DISABLED]);
    await register(everything, ['*']);
    await register(bystander, ['file.deleted']);
    const since = new Date(Date.now() - 1).toISOString();

    gone.replies.push(410);
    const product = await createOf('products');
    await upload('product', product, 'gallery');
    await gone.waitFor(1);
    const disabled = await endpointOnce(endpoint.id, 'disabled', (body) => body.active === false);
    expect(disabled.disabled_reason).toMatch(/410/);

    const [notice] = await watcher.waitFor(1);
    expect(notice.body).toMatchObject({
      event: DISABLED,
      data: {
        endpoint_id: endpoint.id,
        origin: new URL(gone.url).origin,
        reason: 'gone',
        message: disabled.disabled_reason,
        since: expect.any(String),
      },
    });
    expect(Math.abs(Date.parse(notice.body.data.since as string) - Date.now())).toBeLessThan(10_000);
    await eventually('the endpoint subscribed to * to be told too', () =>
      eventsOf(everything.received, DISABLED).length === 1 ? true : undefined,
    );
    // Never to the disabled endpoint itself (not even kept as skipped), nor to one not subscribed to it.
    const ownLog = await deliveriesOf(endpoint.id);
    expect(ownLog.items.map((delivery) => delivery.event_id)).not.toContain(notice.body.id);
    expect(bystander.received).toEqual([]);
    expect((await deliveriesOf(watching.id)).total).toBe(1);
    expect(await disableEvents()).toEqual([
      expect.objectContaining({
        actor: 'system',
        action: 'webhook-endpoint.disable',
        target_type: 'webhook-endpoint',
        target_id: String(endpoint.id),
        outcome: 'success',
        details: { reason: 'gone' },
      }),
    ]);

    for (let i = 0; i < 3; i++) await upload('product', product, 'gallery');
    await eventually('three deliveries kept as skipped', async () =>
      (await deliveriesOf(endpoint.id, 'skipped')).total === 3 ? true : undefined,
    );
    expectProblem(await t.http.post(`/api/webhooks/${endpoint.id}/recover`).send({ since }), 409, 'webhook-disabled');

    const enabled = await t.http.patch(`/api/webhooks/${endpoint.id}`).send({ active: true }).expect(200);
    expect(enabled.body).toMatchObject({ active: true, disabled_reason: null });
    const lost = (await deliveriesOf(endpoint.id)).items.reverse();
    expect(lost.map((delivery) => delivery.status)).toEqual(['failed', 'skipped', 'skipped', 'skipped']);

    // The third one fails again: it gets its one attempt, and no retry.
    gone.replies.push(200, 200, 500);
    const recovered = await t.http.post(`/api/webhooks/${endpoint.id}/recover`).send({ since }).expect(202);
    expect(recovered.body).toEqual({
      requeued: 4,
      remaining: 0,
      next_since: null,
      since,
      until: expect.any(String),
    });
    const hooks = await gone.waitFor(5);
    expect(hooks.slice(1).map((hook) => hook.body.id)).toEqual(lost.map((delivery) => delivery.event_id));
    expect(hooks.slice(1).every((hook) => hook.body.event === 'file.created')).toBe(true);
    const after = await eventually('the recovered deliveries to be done', async () => {
      const log = (await deliveriesOf(endpoint.id)).items.reverse();
      return log.every((delivery) => delivery.status !== 'pending') ? log : undefined;
    });
    expect(after.map(({ status, attempts }) => [status, attempts])).toEqual([
      ['succeeded', 2],
      ['succeeded', 1],
      ['failed', 1],
      ['succeeded', 1],
    ]);
    await staysTrue('no retry of a recovered delivery', () => gone.received.length === 5, 400);

    // That recovery is over: the next one sends what failed since, once.
    const again = await t.http.post(`/api/webhooks/${endpoint.id}/recover`).send({ since }).expect(202);
    expect(again.body.requeued).toBe(1);
    expect((await gone.waitFor(6))[5].body.id).toBe(lost[2].event_id);
    const audited = await t.http.get('/api/audit-events?action=webhook-endpoint.recover').expect(200);
    expect(audited.body.items).toEqual([
      expect.objectContaining({ target_id: String(endpoint.id), outcome: 'success' }),
      expect.objectContaining({ target_id: String(endpoint.id), outcome: 'success' }),
    ]);
  });

  it('disables an endpoint whose deliveries all failed for WEBHOOK_DISABLE_AFTER, and says so', async () => {
    const [failing, watcher] = [await receiver(), await receiver()];
    failing.replies.push(...Array<number>(8).fill(500));
    const endpoint = await register(failing, ['file.created']);
    await register(watcher, [DISABLED]);

    const before = Date.now();
    await upload('product', await createOf('products'), 'cover');
    const disabled = await endpointOnce(endpoint.id, 'disabled', (body) => body.active === false);
    expect(disabled.disabled_reason).toBe('Every delivery failed for too long.');
    const notice = await eventually('the notice', () =>
      watcher.received.find((hook) => hook.body.data.endpoint_id === endpoint.id),
    );
    expect(notice.body.data).toMatchObject({ reason: 'failing', message: disabled.disabled_reason });
    // Since the first failed attempt, at least WEBHOOK_DISABLE_AFTER before the disabling.
    const since = Date.parse(notice.body.data.since as string);
    expect(since).toBeGreaterThanOrEqual(before);
    expect(since).toBeLessThanOrEqual(Date.now() - 300);
    expect((await disableEvents()).map((event) => event.target_id)).toContain(String(endpoint.id));
  });

  it('refuses a malformed recovery, and one of an unknown endpoint', async () => {
    const { id } = await register(await receiver(), ['file.created']);
    const since = '2026-01-01T00:00:00Z';
    const refused = async (body: Record<string, unknown>, field: string) => {
      const problem = expectProblem(
        await t.http.post(`/api/webhooks/${id}/recover`).send(body),
        400,
        'validation-failed',
      );
      expect((problem.errors as Array<{ field: string }>).map((error) => error.field)).toContain(field);
    };
    await refused({}, 'since');
    await refused({ since: 'yesterday' }, 'since');
    await refused({ since, until: since }, 'until');
    await refused({ since, until: '2025-12-31T23:59:59Z' }, 'until');
    // Absent means now; null is not a time (it was read as NaN, a 500).
    await refused({ since, until: null }, 'until');
    await refused({ since, status: ['pending'] }, 'status');
    await refused({ since, status: [] }, 'status');
    await refused({ since, limit: 5 }, 'limit');
    expectProblem(await t.http.post('/api/webhooks/9999/recover').send({ since }), 404, 'webhook-not-found');
    const nothing = await t.http
      .post(`/api/webhooks/${id}/recover`)
      .send({ since, until: '2026-01-02T00:00:00+02:00', status: ['skipped'] })
      .expect(202);
    expect(nothing.body).toEqual({
      requeued: 0,
      remaining: 0,
      next_since: null,
      since: '2026-01-01T00:00:00.000Z',
      until: '2026-01-01T22:00:00.000Z',
    });
  });

  it('lists the kinds with the JSON Schema of their data, followed by the OpenAPI document and payloads', async () => {
    const listed = (await t.http.get('/api/webhooks/event-types').expect(200)).body as Array<{
      event: string;
      description: string;
      subscribable: boolean;
      filterable_by_attachment_type: boolean;
      data_schema: Schema;
      openapi_schema: string;
    }>;
    const kinds = [
      'file.created',
      'file.deleted',
      'file.reordered',
      'file.updated',
      DISABLED,
      'webhook.endpoint.failing',
      'webhook.ping',
    ];
    expect(listed.map((type) => type.event)).toEqual(kinds);
    for (const type of listed) {
      expect(type.description.length).toBeGreaterThan(10);
      expect(type.data_schema).toMatchObject({ type: 'object', required: expect.any(Array) });
      expect(type.openapi_schema).toBe(`#/components/schemas/WebhookEvent_${type.event}`);
      expect(type.filterable_by_attachment_type).toBe(type.event.startsWith('file.'));
      expect(type.subscribable).toBe(type.event !== 'webhook.ping');
    }

    const doc = (await t.http.get('/api/docs-json').expect(200)).body;
    const schemas = doc.components.schemas as Record<string, Schema & { oneOf?: unknown[] }>;
    for (const type of listed) expect(schemas[`WebhookEvent_${type.event}`].properties?.data).toEqual(type.data_schema);
    expect(schemas.WebhookEvent.oneOf).toHaveLength(kinds.length);
    expect(doc.paths['/api/webhooks'].post.callbacks.webhookEvent['{$request.body#/url}'].post.requestBody).toEqual({
      required: true,
      content: { 'application/json': { schema: { $ref: '#/components/schemas/WebhookEvent' } } },
    });
    expect(doc.paths['/api/webhooks/event-types'].get.description).toContain('WebhookEvent_file.created');
    // The file records events carry are the API's: the same properties, of the same types; but no `url`, which
    // would expire while an event waits for its delivery.
    const record = listed[0].data_schema.properties?.file;
    const typesOf = (schema: Schema | undefined) =>
      Object.fromEntries(
        Object.entries(schema?.properties ?? {})
          .filter(([key]) => key !== 'url')
          .map(([key, sub]) => [key, [sub.type, sub.format]]),
      );
    expect(typesOf(record)).toEqual(typesOf(schemas.FileRecord));
    expect(schemas.FileRecord.properties).toHaveProperty('url');
    const apiRequired = (schemas.FileRecord.required ?? []).filter((name) => name !== 'url');
    expect([...(record?.required ?? [])].sort()).toEqual(apiRequired.sort());

    // Every kind, sent for real, conforms to its schema.
    const all = await receiver();
    const everything = await register(all, ['*']);
    const gone = await receiver();
    gone.replies.push(410);
    await register(gone, ['file.created']);
    // Fails long enough to be reported failing (webhook.endpoint.failing) before it is disabled.
    const failing = await receiver();
    failing.replies.push(...Array<number>(8).fill(500));
    await register(failing, ['file.created']);
    const product = await createOf('products');
    await upload('product', product, 'cover');
    const replaced = await upload('product', product, 'cover');
    const gallery = [await upload('product', product, 'gallery'), await upload('product', product, 'gallery')];
    await t.http
      .put(`/files/product/${product}/gallery/order`)
      .send({ ids: gallery.map((file) => file.id).reverse() })
      .expect(200);
    await t.http.delete(`/files/${replaced.id}`).expect(204);
    await t.http.post(`/api/webhooks/${everything.id}/ping`).expect(202);
    const hooks = await eventually('one event of every kind', () =>
      kinds.every((kind) => eventsOf(all.received, kind).length > 0) ? all.received : undefined,
    );
    for (const hook of hooks) {
      expect({
        event: hook.body.event,
        violations: violations(schemas[`WebhookEvent_${hook.body.event}`], hook.body),
      }).toEqual({
        event: hook.body.event,
        violations: [],
      });
    }
  });

  it('filters deliveries by attachment type when events are fanned out, never events about none', async () => {
    const products = await receiver();
    const endpoint = await register(products, ['*'], { filter: { attachment_types: ['product'] } });
    expect(endpoint).toMatchObject({ filter: { attachment_types: ['product'] } });

    const article = await createOf('articles');
    await upload('article', article, 'thumbnail');
    const product = await createOf('products');
    const gallery = [await upload('product', product, 'gallery'), await upload('product', product, 'gallery')];
    await t.http
      .put(`/files/product/${product}/gallery/order`)
      .send({ ids: gallery.map((file) => file.id).reverse() })
      .expect(200);
    await t.http.put(`/files/article/${article}/attachments/order`).send({ ids: [] }).expect(200);
    await t.http.post(`/api/webhooks/${endpoint.id}/ping`).expect(202);
    // Notices about the other tests' failing endpoints (webhook.endpoint.*) may come too: they are about none.
    const received = () => products.received.filter((hook) => !hook.body.event.startsWith('webhook.endpoint.'));
    const hooks = await eventually('the product events and the ping', () =>
      eventsOf(received(), 'webhook.ping').length === 1 && eventsOf(received(), 'file.reordered').length
        ? received()
        : undefined,
    );
    await staysTrue('nothing about the article', () => received().length === 4, 300);
    expect(hooks.map((hook) => hook.body.event).sort()).toEqual([
      'file.created',
      'file.created',
      'file.reordered',
      'webhook.ping',
    ]);
    const about = (hook: ReceivedWebhook) =>
      (hook.body.data.file as { attachment_type?: string } | undefined)?.attachment_type ??
      hook.body.data.attachment_type;
    expect(hooks.filter((hook) => hook.body.event.startsWith('file.')).map(about)).toEqual([
      'product',
      'product',
      'product',
    ]);

    const unfiltered = await t.http.patch(`/api/webhooks/${endpoint.id}`).send({ filter: null }).expect(200);
    expect(unfiltered.body.filter).toBeNull();
    await upload('article', article, 'thumbnail');
    const articleHook = await eventually('the article event', () => received()[4]);
    expect(about(articleHook)).toBe('article');
  });

  it('validates filters: well-formed, known attachment types only', async () => {
    const url = (await receiver()).url;
    const refused = async (filter: unknown, code = 'validation-failed') => {
      const res = await t.http.post('/api/webhooks').send({ url, events: ['*'], filter });
      const problem = expectProblem(res, 400, code);
      expect(JSON.stringify(problem.errors)).toContain('filter');
    };
    await refused({ attachment_types: ['Bad Type'] });
    await refused({ attachment_types: ['brochure'] });
    await refused({ attachment_types: [] });
    await refused({ attachment_types: ['product', 'product'] });
    await refused({});
    await refused([{ attachment_types: ['product'] }]);
    await refused('product');
    await refused({ attachment_types: ['product'], events: ['x'] });
    const { id } = await register(await receiver(), ['*']);
    expectProblem(
      await t.http.patch(`/api/webhooks/${id}`).send({ filter: { attachment_types: ['brochure'] } }),
      400,
      'validation-failed',
    );
    expect((await t.http.get(`/api/webhooks/${id}`).expect(200)).body.filter).toBeNull();
  });
});

describe('Webhook recovery: bounded, one at a time', () => {
  const insertFailed = async (t: TestApp, endpointId: number, count: number, base: number) => {
    const rows = Array.from({ length: count }, (_, i) => ({ id: `evt_bulk_${endpointId}_${i}`, createdAt: base + i }));
    for (let i = 0; i < rows.length; i += 500) {
      const chunk = rows.slice(i, i + 500);
      await t.dataSource
        .createQueryBuilder()
        .insert()
        .into(WebhookEvent)
        .values(chunk.map(({ id, createdAt }) => ({ id, kind: 'file.created', data: { n: id }, createdAt })))
        .execute();
      await t.dataSource
        .createQueryBuilder()
        .insert()
        .into(WebhookDelivery)
        .values(
          chunk.map(({ id, createdAt }) => ({
            eventId: id,
            endpointId,
            status: 'failed' as const,
            attempts: 10,
            nextAttemptAt: createdAt,
            createdAt,
            completedAt: createdAt,
          })),
        )
        .execute();
    }
  };
  const iso = (ms: number) => new Date(ms).toISOString();
  const pending = (t: TestApp, endpointId: number) =>
    t.dataSource.getRepository(WebhookDelivery).countBy({ endpointId, status: 'pending' });

  it('re-queues at most 10,000 per call, says where to go on, and refuses another while the first waits', async () => {
    // Nothing is sent here: the recovery stays running until its deliveries are marked done below.
    const t = await startTestApp({ ...FAST, WEBHOOK_DISPATCHER: 'off' });
    try {
      const { id } = (
        await t.http
          .post('/api/webhooks')
          .send({ url: 'http://127.0.0.1:9/hook', events: ['*'] })
          .expect(201)
      ).body;
      const base = Date.now() - 3_600_000;
      await insertFailed(t, id, 10_003, base);
      const window = { since: iso(base), until: iso(base + 60_000) };

      const first = await t.http.post(`/api/webhooks/${id}/recover`).send(window).expect(202);
      expect(first.body).toEqual({ requeued: 10_000, remaining: 3, next_since: iso(base + 10_000), ...window });
      expect(await pending(t, id)).toBe(10_000);
      const [order] = await t.dataSource.query<Array<{ first: string; last: string }>>(
        `SELECT MIN(next_attempt_at) AS first, MAX(next_attempt_at) AS last FROM webhook_deliveries
         WHERE endpoint_id = ${Number(id)} AND status = 'pending' AND next_attempt_at = created_at`,
      );
      expect([Number(order.first), Number(order.last)]).toEqual([base, base + 9_999]);

      const busy = expectProblem(
        await t.http.post(`/api/webhooks/${id}/recover`).send(window),
        409,
        'webhook-recovery-running',
      );
      expect(busy.detail).toContain('10000');

      // As if the dispatcher had sent them all: the recovery is over, the next call goes on where it stopped.
      await t.dataSource
        .getRepository(WebhookDelivery)
        .update({ endpointId: id, status: 'pending' }, { status: 'succeeded' });
      const rest = await t.http
        .post(`/api/webhooks/${id}/recover`)
        .send({ ...window, since: first.body.next_since })
        .expect(202);
      expect(rest.body).toMatchObject({ requeued: 3, remaining: 0, next_since: null });
    } finally {
      await t.close({ destroy: true });
    }
  });

  it('lets one of two concurrent recoveries of an endpoint run, and answers the other 409', async () => {
    const t = await startTestApp({ ...FAST, WEBHOOK_DISPATCHER: 'off' });
    try {
      const { id } = (
        await t.http
          .post('/api/webhooks')
          .send({ url: 'http://127.0.0.1:9/hook', events: ['*'] })
          .expect(201)
      ).body;
      await insertFailed(t, id, 50, Date.now() - 60_000);
      const since = iso(Date.now() - 120_000);
      const answers = await Promise.all([1, 2].map(() => t.http.post(`/api/webhooks/${id}/recover`).send({ since })));
      expect(answers.map((res) => res.status).sort()).toEqual([202, 409]);
      expect(await pending(t, id)).toBe(50);
    } finally {
      await t.close({ destroy: true });
    }
  });
});

// Several instances sharing one database is a PostgreSQL deployment (SQLite is one process).
if (process.env.TEST_DATABASE_URL) {
  describe('Webhook recovery on PostgreSQL: two instances over one database', () => {
    it('runs one recovery of an endpoint at a time across instances', async () => {
      const database = await createTestDatabase();
      const cluster = { ...FAST, WEBHOOK_DISPATCHER: 'off', OAUTH_ISSUER: 'http://files.cluster.test' };
      const a = await startApp(database, cluster);
      const b = await startApp(database, cluster);
      try {
        const { id } = (
          await a.http
            .post('/api/webhooks')
            .send({ url: 'http://127.0.0.1:9/hook', events: ['*'] })
            .expect(201)
        ).body;
        const base = Date.now() - 60_000;
        await a.dataSource.query(
          `INSERT INTO webhook_events (id, kind, data, created_at)
           SELECT 'evt_pg_' || n, 'file.created', '{}', $1::bigint + n FROM generate_series(1, 2000) AS n`,
          [base],
        );
        await a.dataSource.query(
          `INSERT INTO webhook_deliveries (event_id, endpoint_id, status, attempts, next_attempt_at, created_at)
           SELECT 'evt_pg_' || n, $1, 'skipped', 0, $2::bigint + n, $2::bigint + n FROM generate_series(1, 2000) AS n`,
          [id, base],
        );
        const since = new Date(base).toISOString();
        for (let round = 0; round < 3; round++) {
          const answers = await Promise.all(
            [a, b].map((instance) => instance.http.post(`/api/webhooks/${id}/recover`).send({ since })),
          );
          expect(answers.map((res) => res.status).sort()).toEqual(round === 0 ? [202, 409] : [409, 409]);
        }
        expect(await a.dataSource.getRepository(WebhookDelivery).countBy({ endpointId: id, status: 'pending' })).toBe(
          2000,
        );
      } finally {
        await b.close();
        await a.close({ destroy: true });
      }
    });
  });
}
