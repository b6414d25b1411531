import { jest } from '@jest/globals';
import request from 'supertest';
import { Clock } from '@file-fields/nest';
import { verifyWebhookSignature } from '../src/webhooks/sending/verify-webhook-signature.js';
import { basic, type CreatedIntegration } from './support/admin-api.js';
import { expectProblem, PNG } from './support/fixtures.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import { eventually, staysTrue } from './support/wait.js';
import { startReceiver, type TestReceiver } from './support/webhook-receiver.js';

const FAST = {
  WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
  WEBHOOK_RETRY_SCHEDULE: '100ms',
  WEBHOOK_TIMEOUT: '300ms',
  WEBHOOK_POLL_INTERVAL: '50ms',
};

/** Issue 36, items 5, 6, 9 and 10: what webhooks let a client see or do beyond its permissions. */
describe('Webhooks: nothing beyond what the caller may read, and bounded', () => {
  let t: TestApp;
  let admin: TestReceiver;
  let adminEndpoint: { id: number; secret: string };

  let seq = 0;
  /** A client acting as a fresh integration holding exactly `permissions`, and its role's id. */
  const actingWith = async (permissions: string[]) => {
    const role = (
      await t.http
        .post('/api/roles')
        .send({ name: `hooks-${++seq}`, permissions })
        .expect(201)
    ).body;
    const integration = (
      await t.http
        .post('/api/integrations')
        .send({ label: `hooks-${seq}`, role: role.name })
        .expect(201)
    ).body as CreatedIntegration;
    const token = await request(t.url)
      .post('/api/oauth/token')
      .set('Authorization', basic(integration.access_key_id, integration.secret_access_key))
      .type('form')
      .send({ grant_type: 'client_credentials' })
      .expect(200);
    const as = request.agent(t.url).set('Authorization', `Bearer ${token.body.access_token as string}`);
    return { as, roleId: role.id as number };
  };
  const upload = async (type: 'products' | 'articles') => {
    const body = type === 'products' ? { name: 'hooked' } : { title: 'hooked' };
    const { id } = (await t.http.post(`/${type}`).send(body).expect(201)).body as { id: number };
    const [attachment, field] = type === 'products' ? ['product', 'cover'] : ['article', 'thumbnail'];
    return (await t.http.post(`/files/${attachment}/${id}/${field}`).attach('file', PNG, 'c.png').expect(201)).body as {
      id: number;
    };
  };
  /** Waits for the administrator's endpoint (every event) to receive the file's event, so the others had theirs. */
  const seenByAdmin = (fileId: number) =>
    eventually(`file ${fileId}'s event at the administrator's endpoint`, () =>
      admin.received.find((hook) => (hook.body.data.file as { id?: number } | undefined)?.id === fileId),
    );

  beforeAll(async () => {
    t = await startTestApp(FAST);
    admin = await startReceiver();
    adminEndpoint = (
      await t.http
        .post('/api/webhooks')
        .send({ url: admin.url, events: ['*'] })
        .expect(201)
    ).body;
  });
  afterAll(async () => {
    await t.close({ destroy: true });
    await admin.close();
  });

  describe('an endpoint delivers only the events its creator may read', () => {
    it('an integration without product:read registers file.created and receives no product file', async () => {
      const { as } = await actingWith(['webhook:write']);
      await as.get('/products/1').expect(403);
      const mine = await startReceiver();
      try {
        await as
          .post('/api/webhooks')
          .send({ url: mine.url, events: ['file.created'] })
          .expect(201);
        await seenByAdmin((await upload('products')).id);
        await staysTrue('no product file at the integration', () => mine.received.length === 0, 300);
      } finally {
        await mine.close();
      }
    });

    it('one with product:read receives product files, not article files', async () => {
      const { as } = await actingWith(['webhook:write', 'product:read']);
      const mine = await startReceiver();
      try {
        await as
          .post('/api/webhooks')
          .send({ url: mine.url, events: ['*'] })
          .expect(201);
        const article = await upload('articles');
        const product = await upload('products');
        await seenByAdmin(article.id);
        const [hook] = await mine.waitFor(1);
        expect(hook.body.data.file).toMatchObject({ id: product.id, attachment_type: 'product' });
        await staysTrue('no article file at the integration', () => mine.received.length === 1, 300);
      } finally {
        await mine.close();
      }
    });

    it('cannot point another endpoint at itself, redeliver, recover, rotate or delete it', async () => {
      const { as } = await actingWith(['webhook:write']);
      const id = adminEndpoint.id;
      const { items } = (await t.http.get(`/api/webhooks/${id}/deliveries`).expect(200)).body as {
        items: Array<{ id: number }>;
      };
      const refusals = [
        as.patch(`/api/webhooks/${id}`).send({ url: 'http://127.0.0.1:9/mine' }),
        as.post(`/api/webhooks/${id}/deliveries/${items[0].id}/redeliver`),
        as.post(`/api/webhooks/${id}/recover`).send({ since: new Date(0).toISOString() }),
        as.post(`/api/webhooks/${id}/rotate-secret`),
        as.delete(`/api/webhooks/${id}`),
      ];
      for (const res of await Promise.all(refusals)) {
        const body = expectProblem(res, 403, 'privilege-escalation');
        expect(body.missing_permissions).toEqual(['article:read', 'product:read']);
      }
      expect((await t.http.get(`/api/webhooks/${id}`).expect(200)).body.url).toBe(admin.url);
      // Its secret is still the one the administrator was given.
      const hook = admin.received.at(-1)!;
      expect(verifyWebhookSignature(hook.raw, hook.headers, [adminEndpoint.secret]).valid).toBe(true);
    });

    it("checks the creator's current role when sending: product:read withdrawn, product files are skipped", async () => {
      const { as, roleId } = await actingWith(['webhook:write', 'product:read']);
      const mine = await startReceiver();
      try {
        const { id } = (
          await as
            .post('/api/webhooks')
            .send({ url: mine.url, events: ['file.created'] })
            .expect(201)
        ).body as { id: number };
        await t.http
          .patch(`/api/roles/${roleId}`)
          .send({ permissions: ['webhook:write'] })
          .expect(200);
        await seenByAdmin((await upload('products')).id);
        const skipped = await eventually('the skipped delivery', async () => {
          const page = await t.http.get(`/api/webhooks/${id}/deliveries?status=skipped`).expect(200);
          return (page.body as { items: Array<{ last_error: string }> }).items[0];
        });
        expect(skipped.last_error).toContain('product:read');
        expect(mine.received).toHaveLength(0);
      } finally {
        await mine.close();
      }
    });
  });

  it('a captured delivery replayed an hour later with a fresh timestamp header does not verify', async () => {
    const hook = await seenByAdmin((await upload('products')).id);
    const anHourLater = hook.body.timestamp + 3600;
    const replayed = { ...hook.headers, 'x-webhook-timestamp': String(anHourLater) };
    expect(verifyWebhookSignature(hook.raw, hook.headers, [adminEndpoint.secret]).valid).toBe(true);
    expect(verifyWebhookSignature(hook.raw, replayed, [adminEndpoint.secret], { now: anHourLater })).toEqual({
      valid: false,
      reason: 'timestamp mismatch',
    });
  });

  it('the other endpoints learn a disabled endpoint’s id and origin, never its path', async () => {
    const slackLike = await startReceiver();
    try {
      const origin = new URL(slackLike.url).origin;
      const url = `${origin}/services/T0000/B0000/s3cr3t-t0ken`;
      const { id } = (
        await t.http
          .post('/api/webhooks')
          .send({ url, events: ['*'] })
          .expect(201)
      ).body as {
        id: number;
      };
      slackLike.replies.push(410);
      await upload('products');
      const notice = await eventually('the webhook.endpoint.disabled notice', () =>
        admin.received.find(
          (hook) => hook.body.event === 'webhook.endpoint.disabled' && hook.body.data.endpoint_id === id,
        ),
      );
      expect(notice.body.data).toMatchObject({ endpoint_id: id, origin, reason: 'gone' });
      expect(notice.raw).not.toContain('s3cr3t-t0ken');
      expect(notice.raw).not.toContain('/services/');
    } finally {
      await slackLike.close();
    }
  });

  it('pings of one endpoint are bounded', async () => {
    const id = adminEndpoint.id;
    for (let i = 0; i < 10; i++) await t.http.post(`/api/webhooks/${id}/ping`).expect(202);
    const res = await t.http.post(`/api/webhooks/${id}/ping`);
    expectProblem(res, 429, 'too-many-webhook-pings');
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(3500);
  });

  it('finished deliveries and their events are removed after WEBHOOK_DELIVERY_RETENTION', async () => {
    const hook = await seenByAdmin((await upload('products')).id);
    const rows = async (sql: string) => Number((await t.dataSource.query<Array<{ n: string | number }>>(sql))[0].n);
    const eventRows = `SELECT COUNT(*) AS n FROM webhook_events WHERE id = '${hook.body.id}'`;
    const deliveries = `SELECT COUNT(*) AS n FROM webhook_deliveries WHERE event_id = '${hook.body.id}'`;
    // Every delivery of the event finished (those to the earlier tests' closed receivers fail after one retry).
    await eventually('its deliveries to finish', async () =>
      (await rows(`${deliveries} AND status = 'pending'`)) === 0 ? true : undefined,
    );
    expect(await rows(eventRows)).toBe(1);
    // 31 days on (retention 30 days by default): the next poll removes them, at most once an hour.
    const clock = t.app.get(Clock);
    const later = Date.now() + 31 * 86_400_000;
    jest.spyOn(clock, 'now').mockImplementation(() => new Date(later));
    try {
      await eventually('the event to be removed', async () => ((await rows(eventRows)) === 0 ? true : undefined));
      expect(await rows(deliveries)).toBe(0);
    } finally {
      jest.restoreAllMocks();
    }
  });
});
