import { expectProblem, PNG } from './support/fixtures.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import { eventually } from './support/wait.js';
import { startReceiver, type TestReceiver } from './support/webhook-receiver.js';

const FAST = {
  WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
  WEBHOOK_RETRY_SCHEDULE: '100ms,150ms',
  WEBHOOK_TIMEOUT: '10s',
  WEBHOOK_POLL_INTERVAL: '50ms',
};

interface Endpoint {
  id: number;
  url: string;
  signature_scheme: string;
  active: boolean;
  disabled_reason: string | null;
  failing_since: string | null;
  last_delivery: { status: string; at: string } | null;
}

interface EndpointPage {
  items: Endpoint[];
  total: number;
  limit: number;
  offset: number;
}

describe('Webhooks: the endpoint list (a page, searched, sorted, with each endpoint health)', () => {
  let t: TestApp;
  let healthy: TestReceiver;
  let failing: TestReceiver;

  const register = async (body: Record<string, unknown>): Promise<Endpoint> =>
    (
      await t.http
        .post('/api/webhooks')
        .send({ events: ['file.created'], ...body })
        .expect(201)
    ).body as Endpoint;
  const list = async (query = ''): Promise<EndpointPage> =>
    (await t.http.get(`/api/webhooks${query}`).expect(200)).body as EndpointPage;
  const deliveryOf = (id: number, status: string) =>
    eventually(`a ${status} delivery to webhook ${id}`, async () => {
      const page = (await t.http.get(`/api/webhooks/${id}/deliveries?status=${status}`).expect(200)).body;
      return page.items[0] as { status: string } | undefined;
    });

  beforeAll(async () => {
    t = await startTestApp(FAST);
    [healthy, failing] = await Promise.all([startReceiver(), startReceiver()]);
  });
  afterAll(async () => {
    await t.close({ destroy: true });
    await Promise.all([healthy.close(), failing.close()]);
  });

  it('tells two endpoints of one URL apart by their scheme, and shows how each fares', async () => {
    const github = await register({ url: healthy.url, description: 'Shop sync' });
    const standard = await register({ url: healthy.url, signature_scheme: 'standard', description: 'ERP' });
    const broken = await register({ url: failing.url, description: 'Broken receiver' });
    const off = await register({ url: healthy.url, description: 'Paused' });
    await t.http.patch(`/api/webhooks/${off.id}`).send({ active: false }).expect(200);
    failing.replies.push(500, 500, 500);

    await t.http.post(`/api/webhooks/${github.id}/ping`).expect(202);
    await t.http.post(`/api/webhooks/${broken.id}/ping`).expect(202);
    await deliveryOf(github.id, 'succeeded');
    await deliveryOf(broken.id, 'failed');

    const page = await list();
    expect(page).toMatchObject({ total: 4, limit: 20, offset: 0 });
    const byId = new Map(page.items.map((endpoint) => [endpoint.id, endpoint]));
    expect(byId.get(github.id)).toMatchObject({
      url: healthy.url,
      signature_scheme: 'github',
      active: true,
      failing_since: null,
      last_delivery: { status: 'succeeded', at: expect.any(String) },
    });
    expect(byId.get(standard.id)).toMatchObject({
      url: healthy.url,
      signature_scheme: 'standard',
      failing_since: null,
      last_delivery: null,
    });
    const failed = byId.get(broken.id)!;
    expect(failed).toMatchObject({ active: true, last_delivery: { status: 'failed' } });
    expect(Date.parse(failed.failing_since!)).toBeLessThanOrEqual(Date.parse(failed.last_delivery!.at));
    expect(byId.get(off.id)).toMatchObject({ active: false, disabled_reason: null, last_delivery: null });
    // One endpoint shows the same health as the list does.
    expect((await t.http.get(`/api/webhooks/${broken.id}`).expect(200)).body).toEqual(failed);
    // A success after failures ends the failing, and is the last delivery.
    await t.http.post(`/api/webhooks/${broken.id}/ping`).expect(202);
    await eventually('the broken receiver to recover', async () => {
      const endpoint = (await t.http.get(`/api/webhooks/${broken.id}`).expect(200)).body as Endpoint;
      return endpoint.last_delivery?.status === 'succeeded' && endpoint.failing_since === null;
    });
  });

  it('pages, searches the URL and the description in any case, and sorts', async () => {
    const all = await list('?limit=100');
    expect(all.items.map((endpoint) => endpoint.id)).toEqual([...all.items.map((e) => e.id)].sort((a, b) => a - b));
    const second = await list('?limit=2&offset=1');
    expect(second).toMatchObject({ total: all.total, limit: 2, offset: 1 });
    expect(second.items.map((endpoint) => endpoint.id)).toEqual(all.items.slice(1, 3).map((endpoint) => endpoint.id));

    const erp = await list('?q=eRp');
    expect(erp.total).toBe(1);
    expect(erp.items[0]).toMatchObject({ signature_scheme: 'standard' });
    const found = await list(`?q=${encodeURIComponent(failing.url.toUpperCase())}`);
    expect(found.items.map((endpoint) => endpoint.url)).toEqual([failing.url]);
    expect(await list('?q=%25')).toMatchObject({ total: 0, items: [] });

    const byDescription = await list('?sort=-description');
    expect(byDescription.items.map((endpoint) => (endpoint as Endpoint & { description: string }).description)).toEqual(
      ['Shop sync', 'Paused', 'ERP', 'Broken receiver'],
    );
  });

  it('finds deliveries by the kind of their event, or by the event id a receiver reports', async () => {
    const [github] = (await list('?q=shop')).items;
    const { id: product } = (await t.http.post('/products').send({ name: 'hooked' }).expect(201)).body;
    await t.http.post(`/files/product/${product}/cover`).attach('file', PNG, 'c.png').expect(201);
    await deliveryOf(github.id, 'succeeded');
    const deliveries = async (query: string) =>
      (await t.http.get(`/api/webhooks/${github.id}/deliveries?${query}`).expect(200)).body as {
        items: Array<{ event: string; event_id: string }>;
        total: number;
      };
    const created = await eventually('the file.created delivery', async () => {
      const page = await deliveries('event=file.created');
      return page.total === 1 ? page : undefined;
    });
    expect(created.items.map((delivery) => delivery.event)).toEqual(['file.created']);
    const pings = await deliveries('event=webhook.ping&status=succeeded');
    expect(pings.items.map((delivery) => delivery.event)).toEqual(['webhook.ping']);
    const one = await deliveries(`event_id=${pings.items[0].event_id}`);
    expect(one).toMatchObject({ total: 1, items: [{ event: 'webhook.ping', event_id: pings.items[0].event_id }] });
    expect(await deliveries('event=file.deleted')).toMatchObject({ total: 0, items: [] });
    expect((await deliveries('limit=1')).total).toBe(2);
  });

  it('refuses a query it cannot answer, naming the parameter', async () => {
    for (const [query, field] of [
      ['?sort=secret', 'sort'],
      ['?limit=0', 'limit'],
      ['?limit=101', 'limit'],
      ['?offset=-1', 'offset'],
      [`?q=${'x'.repeat(201)}`, 'q'],
    ]) {
      const problem = expectProblem(await t.http.get(`/api/webhooks${query}`), 400, 'validation-failed');
      expect(problem.errors).toEqual([expect.objectContaining({ field })]);
    }
  });

  it('names the cause of a refused URL as an error of the url field', async () => {
    const cases: Array<[string, RegExp]> = [
      ['https://example.org:99999/hooks', /^The port 99999 is out of range: a port is a number from 1 to 65535\.$/],
      ['https://example.org:http/hooks', /“http” is not a port/],
      ['https://user:secret@example.org/hooks', /must not contain a user name or password/],
      ['not a url', /^The URL must start with http:\/\/ or https:\/\/\.$/],
      ['https://exa mple.org/', /“exa mple\.org” is not a valid host name/],
    ];
    const [{ id }] = (await list()).items;
    for (const [url, cause] of cases) {
      for (const res of [
        await t.http.post('/api/webhooks').send({ url, events: ['*'] }),
        await t.http.patch(`/api/webhooks/${id}`).send({ url }),
      ]) {
        const problem = expectProblem(res, 400, 'unsafe-webhook-url');
        expect(problem.detail).toMatch(cause);
        expect(problem.errors).toEqual([{ field: 'url', messages: [expect.stringMatching(cause)] }]);
      }
    }
  });
});

describe('Webhooks: the health of a page of endpoints', () => {
  it('is read in the same number of queries for 20 endpoints as for 1', async () => {
    const t = await startTestApp({ ...FAST, WEBHOOK_DISPATCHER: 'off' });
    const register = (count: number) =>
      Promise.all(
        Array.from({ length: count }, (_, i) =>
          t.http
            .post('/api/webhooks')
            .send({ url: `http://127.0.0.1:9/${i}`, events: ['*'] })
            .expect(201),
        ),
      );
    /** The SQL statements the service runs to answer one request. */
    const statementsFor = async (path: string) => {
      const logger = t.dataSource.logger;
      let count = 0;
      const counting = Object.assign(Object.create(logger) as typeof logger, {
        logQuery: (...args: Parameters<typeof logger.logQuery>) => {
          count++;
          logger.logQuery(...args);
        },
      });
      Object.assign(t.dataSource, { logger: counting });
      try {
        await t.http.get(path).expect(200);
      } finally {
        Object.assign(t.dataSource, { logger });
      }
      return count;
    };
    try {
      await register(1);
      const one = await statementsFor('/api/webhooks?limit=1');
      await register(30);
      const twenty = await statementsFor('/api/webhooks?limit=20');
      expect(one).toBeGreaterThan(0);
      expect(twenty).toBe(one);
    } finally {
      await t.close({ destroy: true });
    }
  });
});

describe('Webhooks: a refused destination in production, as a field error', () => {
  it('names the setting for plain http, and the address for a private network', async () => {
    const t = await startTestApp({ WEBHOOK_DISPATCHER: 'off' });
    try {
      const http = expectProblem(
        await t.http.post('/api/webhooks').send({ url: 'http://example.org/hooks', events: ['*'] }),
        400,
        'unsafe-webhook-url',
      );
      expect(http.errors).toEqual([
        { field: 'url', messages: [expect.stringMatching(/^The URL must start with https:\/\/\. WEBHOOK_ALLOW/)] },
      ]);
      const loopback = expectProblem(
        await t.http.post('/api/webhooks').send({ url: 'https://127.0.0.1/hooks', events: ['*'] }),
        400,
        'unsafe-webhook-url',
      );
      expect(loopback.errors).toEqual([
        { field: 'url', messages: [expect.stringMatching(/resolves to the non-public address 127\.0\.0\.1/)] },
      ]);
    } finally {
      await t.close({ destroy: true });
    }
  });
});
