import request from 'supertest';
import { eventually, staysTrue } from './support/wait.js';
import { PNG } from './support/fixtures.js';
import {
  buildService,
  startServiceProcess,
  type ServiceBuild,
  type ServiceProcess,
} from './support/service-process.js';
import {
  ADMIN_PASSWORD,
  createTestDatabase,
  passwordToken,
  startApp,
  startTestApp,
  type TestApp,
} from './support/test-app.js';
import { startReceiver, type ReceivedWebhook, type TestReceiver } from './support/webhook-receiver.js';

/**
 * Per-endpoint delivery modes: order per entity under retries, thin payloads, a rate limit, the warning before an
 * endpoint is disabled, and the endpoints that heal by themselves (auto_recover).
 */

interface FileData {
  file: { id: number; attachment_type: string; attachment_id: number };
}

/** Runs the suite's tests against one application, with its receivers closed at the end. */
function suiteApp(env: Record<string, string>) {
  const state: { t?: TestApp; receivers: TestReceiver[] } = { receivers: [] };
  beforeAll(async () => {
    state.t = await startTestApp({ WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', WEBHOOK_TIMEOUT: '10s', ...env });
  });
  afterAll(async () => {
    await state.t?.close({ destroy: true });
    for (const started of state.receivers) await started.close();
  });
  const app = () => {
    if (!state.t) throw new Error('The application has not started');
    return state.t;
  };
  const receiver = async () => {
    const started = await startReceiver();
    state.receivers.push(started);
    return started;
  };
  const register = async (to: TestReceiver, events: string[], more: Record<string, unknown> = {}) =>
    (
      await app()
        .http.post('/api/webhooks')
        .send({ url: to.url, events, ...more })
        .expect(201)
    ).body as { id: number } & Record<string, unknown>;
  const product = async () => (await app().http.post('/products').send({ name: 'p' }).expect(201)).body.id as number;
  const upload = async (id: number, field = 'gallery') =>
    (await app().http.post(`/files/product/${id}/${field}`).attach('file', PNG, 'x.png').expect(201)).body as {
      id: number;
    };
  const endpoint = (id: number) =>
    app()
      .http.get(`/api/webhooks/${id}`)
      .expect(200)
      .then((res) => res.body as Record<string, unknown>);
  return { app, receiver, register, product, upload, endpoint };
}

const fileOf = (hook: ReceivedWebhook) => (hook.body.data as unknown as FileData).file;

describe('Webhooks: order per entity', () => {
  // A failed attempt is retried a second later: long enough for the other deliveries to show whether they waited.
  const s = suiteApp({ WEBHOOK_RETRY_SCHEDULE: '1s,1s,1s', WEBHOOK_POLL_INTERVAL: '50ms' });

  it("holds back only the failing entity's later events, in the order they were written; none keeps no order", async () => {
    const [ordered, unordered] = [await s.receiver(), await s.receiver()];
    const [a, b] = [await s.product(), await s.product()];
    // The first attempt of the first event about item `a` fails, at both receivers; every other answer is 200.
    for (const receiver of [ordered, unordered]) {
      const failed = new Set<string>();
      receiver.answer = (hook) => {
        const file = hook.body.event === 'file.created' ? fileOf(hook as ReceivedWebhook) : undefined;
        if (file?.attachment_id !== a || failed.size > 0) return undefined;
        failed.add(hook.body.id);
        return 500;
      };
    }
    await s.register(ordered, ['file.created'], { ordering: 'per-entity' });
    await s.register(unordered, ['file.created']);

    const written = [await s.upload(a), await s.upload(a), await s.upload(a)].map((file) => file.id);
    const other = (await s.upload(b)).id;

    for (const receiver of [ordered, unordered]) {
      await eventually('every event delivered', () =>
        new Set(receiver.received.filter((hook) => hook.reply === 200).map((hook) => hook.body.id)).size === 4
          ? true
          : undefined,
      );
    }
    const aboutA = (receiver: TestReceiver) =>
      receiver.received.filter((hook) => fileOf(hook).attachment_id === a).map((hook) => [fileOf(hook).id, hook.reply]);
    const firstDelivered = (receiver: TestReceiver) =>
      receiver.received.find((hook) => fileOf(hook).id === written[0] && hook.reply === 200)!;

    // Ordered: the first event fails, is retried, and only then do the later ones about `a` go, in order.
    expect(aboutA(ordered)).toEqual([
      [written[0], 500],
      [written[0], 200],
      [written[1], 200],
      [written[2], 200],
    ]);
    // The event about `b` did not wait for `a`'s retry.
    const aboutB = ordered.received.find((hook) => fileOf(hook).id === other)!;
    expect(aboutB.at).toBeLessThan(firstDelivered(ordered).at);

    // Without ordering, the later events about `a` went before the failed one's retry.
    const later = unordered.received.filter((hook) => written.slice(1).includes(fileOf(hook).id));
    expect(later.every((hook) => hook.at < firstDelivered(unordered).at)).toBe(true);
  });

  it('takes ordering and payload at registration and on change, and refuses unknown modes', async () => {
    const created = await s.register(await s.receiver(), ['file.created'], { ordering: 'per-entity', payload: 'thin' });
    expect(created).toMatchObject({ ordering: 'per-entity', payload: 'thin', rate_limit: null, auto_recover: false });
    const changed = await s
      .app()
      .http.patch(`/api/webhooks/${created.id}`)
      .send({ ordering: 'none', payload: 'full', rate_limit: 5, auto_recover: true })
      .expect(200);
    expect(changed.body).toMatchObject({ ordering: 'none', payload: 'full', rate_limit: 5, auto_recover: true });
    for (const body of [{ ordering: 'per-item' }, { payload: 'slim' }, { rate_limit: 0 }, { rate_limit: 1.5 }]) {
      await s.app().http.patch(`/api/webhooks/${created.id}`).send(body).expect(400);
    }
    expect(await s.endpoint(created.id)).toMatchObject({ ordering: 'none', payload: 'full', rate_limit: 5 });
  });
});

describe('Webhooks: thin payloads and rate limits', () => {
  // A failed attempt (a kept-alive connection the receiver closed, on a loaded machine) is retried at once.
  const s = suiteApp({ WEBHOOK_POLL_INTERVAL: '50ms', WEBHOOK_RETRY_SCHEDULE: '100ms,200ms,400ms' });

  it('sends the object and its item with their URLs and no data; the receiver reads them with its own token', async () => {
    const [thin, full] = [await s.receiver(), await s.receiver()];
    await s.register(thin, ['file.created'], { payload: 'thin' });
    await s.register(full, ['file.created']);
    const item = await s.product();
    const file = await s.upload(item, 'cover');

    const [hook] = await thin.waitFor(1);
    expect(hook.body).toEqual({
      id: expect.stringMatching(/^evt_/),
      event: 'file.created',
      created_at: expect.any(String),
      timestamp: expect.any(Number),
      object: { type: 'file', id: file.id, url: `${s.app().url}/files/${file.id}` },
      entity: { type: 'product', id: item, url: `${s.app().url}/products/${item}` },
    });
    // As the OpenAPI document describes it, for receivers that generate their types from it.
    const doc = (await s.app().http.get('/api/docs-json').expect(200)).body as {
      components: { schemas: Record<string, { required: string[]; properties: Record<string, unknown> }> };
      paths: Record<string, { post?: { callbacks?: Record<string, unknown> } }>;
    };
    const thinSchema = doc.components.schemas.WebhookThinEvent;
    expect(Object.keys(hook.body)).toEqual(expect.arrayContaining(thinSchema.required));
    expect(Object.keys(thinSchema.properties)).toEqual(expect.arrayContaining(Object.keys(hook.body)));
    expect(Object.keys(doc.paths['/api/webhooks'].post?.callbacks ?? {})).toEqual(['webhookEvent', 'webhookThinEvent']);
    const [fullHook] = await full.waitFor(1);
    expect(fullHook.body.id).toBe(hook.body.id);
    expect(fileOf(fullHook)).toMatchObject({ id: file.id, attachment_id: item });

    // The current state, read with the receiver's own token.
    const reference = hook.body as unknown as Record<'object' | 'entity', { url: string }>;
    const authorization = `Bearer ${(await passwordToken(s.app().url, 'admin', ADMIN_PASSWORD)).access_token}`;
    const read = await request(reference.object.url).get('').set('Authorization', authorization).expect(200);
    expect(read.body).toMatchObject({ id: file.id, attachment_type: 'product', attachment_id: item });
    await request(reference.object.url).get('').expect(401);
    await request(reference.entity.url).get('').set('Authorization', authorization).expect(200);
  });

  it('starts no more deliveries a second than the endpoint’s rate_limit', async () => {
    const limited = await s.receiver();
    await s.register(limited, ['file.created'], { rate_limit: 2 });
    const item = await s.product();
    for (let i = 0; i < 6; i++) await s.upload(item);

    const hooks = await eventually(
      'the six events',
      () => (new Set(limited.received.map((hook) => hook.body.id)).size === 6 ? [...limited.received] : undefined),
      30_000,
    );
    // A bucket of one second's worth: any three consecutive requests (retries count too) span at least half a second.
    const spans = hooks.slice(2).map((hook, i) => hook.at - hooks[i].at);
    expect(Math.min(...spans)).toBeGreaterThanOrEqual(450);
    expect(hooks.at(-1)!.at - hooks[0].at).toBeGreaterThanOrEqual(1_900);
  });
});

describe('Webhooks: warned before disabled, and healed by a probe', () => {
  // Failing 150 ms: warned; 300 ms (and warned): disabled; a disabled endpoint that heals itself is probed every 300 ms.
  const s = suiteApp({
    WEBHOOK_RETRY_SCHEDULE: '100ms,150ms,200ms',
    WEBHOOK_POLL_INTERVAL: '50ms',
    WEBHOOK_ENDPOINT_CONCURRENCY: '1',
    WEBHOOK_WARN_AFTER: '150ms',
    WEBHOOK_DISABLE_AFTER: '300ms',
    WEBHOOK_PROBE_INTERVAL: '300ms',
  });
  const auditOf = async (action: string, id: number) =>
    (
      (await s.app().http.get(`/api/audit-events?action=${action}&limit=100`).expect(200)).body.items as Array<{
        target_id: string;
        actor: string;
        details?: Record<string, unknown>;
      }>
    ).filter((event) => event.target_id === String(id));

  it('warns the owner (event, endpoint, audit) before disabling an endpoint that keeps failing', async () => {
    const [failing, watcher] = [await s.receiver(), await s.receiver()];
    failing.answer = () => 500;
    const hook = await s.register(failing, ['file.created']);
    await s.register(watcher, ['webhook.endpoint.failing', 'webhook.endpoint.disabled']);

    await s.upload(await s.product());
    const warned = await eventually('the warning', async () => {
      const body = await s.endpoint(hook.id);
      return body.warned_at ? body : undefined;
    });
    const notices = await eventually('both notices', () =>
      watcher.received.length >= 2 ? watcher.received.map((received) => received.body) : undefined,
    );
    expect(notices.map((notice) => notice.event)).toEqual(['webhook.endpoint.failing', 'webhook.endpoint.disabled']);
    const since = Date.parse(String(notices[0].data.since));
    expect(notices[0].data).toEqual({
      endpoint_id: hook.id,
      origin: new URL(failing.url).origin,
      since: expect.any(String),
      disabled_at: new Date(since + 300).toISOString(),
    });
    expect(Date.parse(String(warned.warned_at))).toBeGreaterThanOrEqual(since + 150);
    expect((await s.endpoint(hook.id)).active).toBe(false);
    expect(await auditOf('webhook-endpoint.failing', hook.id)).toEqual([
      expect.objectContaining({
        actor: 'system',
        details: { since: notices[0].data.since, disabled_at: expect.any(String) },
      }),
    ]);
    // It is not probed: it did not opt in.
    expect((await s.endpoint(hook.id)).next_probe_at).toBeNull();
    await staysTrue(
      'no probe',
      () => failing.received.every((received) => received.body.event !== 'webhook.ping'),
      700,
    );
  });

  it('probes a disabled endpoint that heals itself, re-enables it once it answers, and sends what it missed', async () => {
    const healing = await s.receiver();
    let down = true;
    healing.answer = () => (down ? 500 : 200);
    const hook = await s.register(healing, ['file.created'], { auto_recover: true });
    const item = await s.product();
    const first = await s.upload(item);
    await eventually('the endpoint disabled', async () =>
      (await s.endpoint(hook.id)).active === false ? true : undefined,
    );
    const missed = [await s.upload(item), await s.upload(item)];
    // Still down: the probes fail and it stays disabled, probed again later.
    await eventually('a failed probe', () =>
      healing.received.some((received) => received.body.event === 'webhook.ping') ? true : undefined,
    );
    expect((await s.endpoint(hook.id)).active).toBe(false);

    down = false;
    const enabled = await eventually('the endpoint enabled again', async () => {
      const body = await s.endpoint(hook.id);
      return body.active === true ? body : undefined;
    });
    expect(enabled).toMatchObject({ disabled_reason: null, failing_since: null, warned_at: null, next_probe_at: null });
    const probe = healing.received.filter((received) => received.body.event === 'webhook.ping').at(-1)!;
    expect(probe.body.data).toEqual({ endpoint_id: hook.id, probe: true });
    // What failed and what was skipped while disabled arrive, in the order they were written.
    const delivered = await eventually('the missed events', () => {
      const files = healing.received
        .filter((received) => received.reply === 200 && received.body.event === 'file.created')
        .map((received) => fileOf(received).id);
      return files.length >= 3 ? files : undefined;
    });
    expect(delivered).toEqual([first.id, ...missed.map((file) => file.id)]);
    expect(await auditOf('webhook-endpoint.re-enable', hook.id)).toEqual([
      expect.objectContaining({ actor: 'system', details: { requeued: 3, since: expect.any(String) } }),
    ]);
  });
});

// Several instances sharing one database is a PostgreSQL deployment (SQLite is one process).
if (process.env.TEST_DATABASE_URL) {
  describe('Webhooks on PostgreSQL: order per entity across two instances, one killed mid-delivery', () => {
    let build: ServiceBuild;
    const services: ServiceProcess[] = [];
    beforeAll(async () => {
      build = await buildService('webhook-order');
    });
    afterAll(async () => {
      for (const service of services) await service.stop('SIGKILL');
      await build.remove();
    });

    it('sends the later events about the item only after the killed instance’s delivery was sent again', async () => {
      const database = await createTestDatabase();
      // Writes the events; the two service processes send them. A lease outlives an attempt by 5 s: the delivery
      // the killed instance held is sent again 15 s after it was claimed.
      const cluster = {
        WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
        WEBHOOK_TIMEOUT: '10s',
        WEBHOOK_LEASE: '15s',
        WEBHOOK_POLL_INTERVAL: '100ms',
      };
      const writer = await startApp(database, { ...cluster, WEBHOOK_DISPATCHER: 'off' });
      const receiver = await startReceiver();
      try {
        await writer.http
          .post('/api/webhooks')
          .send({ url: receiver.url, events: ['file.created'], ordering: 'per-entity' })
          .expect(201);
        const item = (await writer.http.post('/products').send({ name: 'a' }).expect(201)).body.id as number;
        const other = (await writer.http.post('/products').send({ name: 'b' }).expect(201)).body.id as number;
        const upload = async (id: number) =>
          (await writer.http.post(`/files/product/${id}/gallery`).attach('file', PNG, 'x.png').expect(201)).body
            .id as number;
        const written = [await upload(item), await upload(item), await upload(item)];
        const unrelated = await upload(other);

        // The first attempt at the first event about the item is never answered.
        let hung: () => void = () => undefined;
        let hungOnce = false;
        const firstHung = new Promise<void>((resolve) => (hung = resolve));
        receiver.answer = (hook) => {
          if (fileOf(hook as ReceivedWebhook).id !== written[0] || hungOnce) return undefined;
          hungOnce = true;
          hung();
          return 'hang';
        };
        const instances = await Promise.all([1, 2].map(() => startServiceProcess(build, database, cluster)));
        services.push(...instances);
        await firstHung;
        // The instance holding the hung delivery (its lease names its process) dies before the attempt's deadline.
        const [{ lease_owner: owner }] = await writer.dataSource.query<Array<{ lease_owner: string }>>(
          'SELECT lease_owner FROM webhook_deliveries WHERE id = (SELECT min(id) FROM webhook_deliveries)',
        );
        const holder = instances.find((instance) => owner.split(':')[1] === String(instance.child.pid));
        if (!holder) throw new Error(`No instance holds the lease ${owner}`);
        await holder.stop('SIGKILL');

        const succeeded = await eventually(
          'every event sent',
          () => {
            const sent = receiver.received.filter((hook) => hook.reply === 200).map((hook) => fileOf(hook).id);
            return new Set(sent).size === 4 ? sent : undefined;
          },
          60_000,
        );
        expect(succeeded.filter((id) => written.includes(id))).toEqual(written);
        expect(succeeded).toContain(unrelated);
        // Nothing about the item reached the receiver between the hung attempt and its successful one.
        const aboutItem = receiver.received.filter((hook) => written.includes(fileOf(hook).id));
        expect(aboutItem.map((hook) => [fileOf(hook).id, hook.reply])).toEqual([
          [written[0], 'hang'],
          [written[0], 200],
          [written[1], 200],
          [written[2], 200],
        ]);
      } finally {
        await receiver.close();
        await writer.close({ destroy: true });
      }
    });
  });
}
