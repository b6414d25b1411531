import request from 'supertest';
import { AuditEvent } from '../src/audit/audit-event.entity.js';
import { AuditRetention } from '../src/audit/audit-retention.js';
import { basic } from './support/admin-api.js';
import { expectProblem } from './support/fixtures.js';
import { ADMIN_PASSWORD, startTestApp, type TestApp } from './support/test-app.js';

const TOKEN = '/api/oauth/token';
const DAY = 86_400_000;

interface AuditEventBody {
  id: number;
  occurred_at: string;
  actor: string;
  client_id: string | null;
  action: string;
  target_type: string | null;
  target_id: string | null;
  outcome: string;
  request_id: string | null;
  source_ip: string | null;
  details: Record<string, unknown> | null;
}

interface AuditPage {
  items: AuditEventBody[];
  total: number;
  limit: number;
  offset: number;
}

/** The audit trail: every administrative change and every sign-in, readable with audit:read, never a secret. */
describe('Audit trail', () => {
  let t: TestApp;
  let adminActor: string;
  /** Every secret the API handed out or was given during the suite: none may show in the trail. */
  const secrets: string[] = [];
  let seq = 0;
  const unique = (prefix: string) => `${prefix}-${++seq}`;

  const audit = async (query = '') => (await t.http.get(`/api/audit-events${query}`).expect(200)).body as AuditPage;
  /** The whole trail, over all pages. */
  const wholeTrail = async () => {
    const items: AuditEventBody[] = [];
    for (let offset = 0; ; offset += 100) {
      const page = await audit(`?limit=100&offset=${offset}`);
      items.push(...page.items);
      if (items.length >= page.total) return items;
    }
  };
  /** The one event recorded for the request that got `res`, found by its X-Request-Id. */
  const eventOf = async (res: request.Response, action: string) => {
    const requestId = res.headers['x-request-id'];
    expect(requestId).toEqual(expect.any(String));
    const matching = (await audit(`?action=${encodeURIComponent(action)}&limit=100`)).items.filter(
      (event) => event.request_id === requestId,
    );
    expect(matching).toHaveLength(1);
    return matching[0];
  };
  /** Asserts the event of an administrator's successful change. */
  const expectAdminChange = async (res: request.Response, action: string, targetType: string, targetId: number) => {
    const { details, ...event } = await eventOf(res, action);
    expect(details === null || typeof details === 'object').toBe(true);
    expect(event).toEqual({
      id: expect.any(Number),
      occurred_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      actor: adminActor,
      client_id: 'administration',
      action,
      target_type: targetType,
      target_id: String(targetId),
      outcome: 'success',
      request_id: res.headers['x-request-id'],
      source_ip: '127.0.0.1',
    });
  };
  /** An HTTP client acting as a fresh integration that holds exactly `permissions`. */
  const actingWith = async (permissions: string[]) => {
    const role = unique('role');
    await t.http.post('/api/roles').send({ name: role, permissions }).expect(201);
    const created = await t.http
      .post('/api/integrations')
      .send({ label: unique('int'), role })
      .expect(201);
    const { id, access_key_id, secret_access_key } = created.body as {
      id: number;
      access_key_id: string;
      secret_access_key: string;
    };
    secrets.push(secret_access_key);
    const token = await request(t.url)
      .post(TOKEN)
      .set('Authorization', basic(access_key_id, secret_access_key))
      .type('form')
      .send({ grant_type: 'client_credentials' })
      .expect(200);
    return {
      id,
      clientId: access_key_id,
      as: request.agent(t.url).set('Authorization', `Bearer ${(token.body as { access_token: string }).access_token}`),
    };
  };

  beforeAll(async () => {
    t = await startTestApp({ WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', WEBHOOK_DISPATCHER: 'off' });
    const users = (await t.http.get('/api/users?q=admin').expect(200)).body.items as Array<{
      id: number;
      username: string;
    }>;
    adminActor = `user:${users.find((user) => user.username === 'admin')!.id}`;
    secrets.push(ADMIN_PASSWORD);
  });
  afterAll(async () => t.close({ destroy: true }));

  it('records every change to an integration', async () => {
    const role = unique('role');
    await t.http
      .post('/api/roles')
      .send({ name: role, permissions: ['product:read'] })
      .expect(201);
    const created = await t.http.post('/api/integrations').send({ label: 'audited', role }).expect(201);
    const id = created.body.id as number;
    secrets.push(created.body.secret_access_key as string);
    await expectAdminChange(created, 'integration.create', 'integration', id);

    const updated = await t.http.patch(`/api/integrations/${id}`).send({ label: 'audited 2' }).expect(200);
    await expectAdminChange(updated, 'integration.update', 'integration', id);
    expect((await eventOf(updated, 'integration.update')).details).toEqual({ fields: ['label'] });

    const rotated = await t.http.post(`/api/integrations/${id}/rotate-secret`).expect(200);
    secrets.push(rotated.body.secret_access_key as string);
    await expectAdminChange(rotated, 'integration.rotate-secret', 'integration', id);

    const expired = await t.http.delete(`/api/integrations/${id}/previous-secret`).expect(200);
    await expectAdminChange(expired, 'integration.expire-previous-secret', 'integration', id);

    const deleted = await t.http.delete(`/api/integrations/${id}`).expect(204);
    await expectAdminChange(deleted, 'integration.delete', 'integration', id);
  });

  it('records every change to a role and to a user', async () => {
    const createdRole = await t.http
      .post('/api/roles')
      .send({ name: unique('role'), permissions: ['product:read'] })
      .expect(201);
    const roleId = createdRole.body.id as number;
    await expectAdminChange(createdRole, 'role.create', 'role', roleId);
    const updatedRole = await t.http
      .patch(`/api/roles/${roleId}`)
      .send({ permissions: ['product:read', 'article:read'] })
      .expect(200);
    await expectAdminChange(updatedRole, 'role.update', 'role', roleId);

    const password = 'a-first-password-for-the-audit';
    const newPassword = 'a-second-password-for-the-audit';
    secrets.push(password, newPassword);
    const createdUser = await t.http
      .post('/api/users')
      .send({ username: unique('auditee'), password, role: createdRole.body.name })
      .expect(201);
    const userId = createdUser.body.id as number;
    await expectAdminChange(createdUser, 'user.create', 'user', userId);
    const updatedUser = await t.http.patch(`/api/users/${userId}`).send({ password: newPassword }).expect(200);
    await expectAdminChange(updatedUser, 'user.update', 'user', userId);
    expect((await eventOf(updatedUser, 'user.update')).details).toEqual({ fields: ['password'] });
    const deletedUser = await t.http.delete(`/api/users/${userId}`).expect(204);
    await expectAdminChange(deletedUser, 'user.delete', 'user', userId);

    const deletedRole = await t.http.delete(`/api/roles/${roleId}`).expect(204);
    await expectAdminChange(deletedRole, 'role.delete', 'role', roleId);
  });

  it('records every change to a webhook endpoint, pings and redeliveries included', async () => {
    const created = await t.http
      .post('/api/webhooks')
      .send({ url: 'http://127.0.0.1:9/hook', events: ['*'] })
      .expect(201);
    const id = created.body.id as number;
    secrets.push(created.body.secret as string);
    await expectAdminChange(created, 'webhook-endpoint.create', 'webhook-endpoint', id);

    const updated = await t.http.patch(`/api/webhooks/${id}`).send({ description: 'audited' }).expect(200);
    await expectAdminChange(updated, 'webhook-endpoint.update', 'webhook-endpoint', id);

    const rotated = await t.http.post(`/api/webhooks/${id}/rotate-secret`).expect(200);
    secrets.push(rotated.body.secret as string);
    await expectAdminChange(rotated, 'webhook-endpoint.rotate-secret', 'webhook-endpoint', id);

    const pinged = await t.http.post(`/api/webhooks/${id}/ping`).expect(202);
    await expectAdminChange(pinged, 'webhook-endpoint.ping', 'webhook-endpoint', id);

    const deliveries = await t.http.get(`/api/webhooks/${id}/deliveries`).expect(200);
    const deliveryId = (deliveries.body as { items: Array<{ id: number }> }).items[0].id;
    const redelivered = await t.http.post(`/api/webhooks/${id}/deliveries/${deliveryId}/redeliver`).expect(200);
    await expectAdminChange(redelivered, 'webhook-endpoint.redeliver', 'webhook-endpoint', id);
    expect((await eventOf(redelivered, 'webhook-endpoint.redeliver')).details).toEqual({
      params: { deliveryId: String(deliveryId) },
    });

    const deleted = await t.http.delete(`/api/webhooks/${id}`).expect(204);
    await expectAdminChange(deleted, 'webhook-endpoint.delete', 'webhook-endpoint', id);
  });

  it('records a change refused with 403 as denied, with the integration that tried, and answers the same 403', async () => {
    const { id, clientId, as } = await actingWith(['role:read', 'role:write']);
    const refused = await as.post('/api/roles').send({ name: unique('role'), permissions: ['*'] });
    expectProblem(refused, 403, 'privilege-escalation');
    expect(await eventOf(refused, 'role.create')).toMatchObject({
      actor: `integration:${id}`,
      client_id: clientId,
      outcome: 'denied',
      target_id: null,
      details: { problem: 'privilege-escalation' },
    });
  });

  it('records sign-ins, failed ones without what was typed, and never the password', async () => {
    const wrongPassword = 'not-the-admin-password-at-all';
    secrets.push(wrongPassword);
    const failed = await request(t.url)
      .post(TOKEN)
      .send({ grant_type: 'password', client_id: 'administration', username: 'nobody-here', password: wrongPassword })
      .expect(400);
    expect(await eventOf(failed, 'sign-in.failed')).toMatchObject({
      actor: 'anonymous',
      target_id: null,
      client_id: 'administration',
      outcome: 'failure',
      request_id: failed.headers['x-request-id'],
      source_ip: '127.0.0.1',
    });
    const wrongForAdmin = await request(t.url)
      .post(TOKEN)
      .send({ grant_type: 'password', client_id: 'administration', username: 'admin', password: wrongPassword })
      .expect(400);
    expect(await eventOf(wrongForAdmin, 'sign-in.failed')).toMatchObject({
      actor: 'anonymous',
      target_type: 'user',
      target_id: adminActor.replace('user:', ''),
      details: { reason: 'wrong-password' },
    });

    const succeeded = await request(t.url)
      .post(TOKEN)
      .send({ grant_type: 'password', client_id: 'administration', username: 'admin', password: ADMIN_PASSWORD })
      .expect(200);
    secrets.push(succeeded.body.access_token as string, succeeded.body.refresh_token as string);
    expect(await eventOf(succeeded, 'sign-in.succeeded')).toMatchObject({
      actor: adminActor,
      client_id: 'administration',
      outcome: 'success',
      source_ip: '127.0.0.1',
    });

    // A refresh is not a sign-in.
    const before = (await audit('?action=sign-in.succeeded')).total;
    await request(t.url)
      .post(TOKEN)
      .send({ grant_type: 'refresh_token', client_id: 'administration', refresh_token: succeeded.body.refresh_token })
      .expect(200);
    expect((await audit('?action=sign-in.succeeded')).total).toBe(before);
  });

  it('holds no secret the API handed out or was given', async () => {
    const trail = JSON.stringify(await wholeTrail());
    expect(secrets.length).toBeGreaterThan(8);
    for (const secret of secrets) expect(trail).not.toContain(secret);
  });

  it('filters on actor, action and time, and pages newest first', async () => {
    const all = await audit('?limit=100');
    expect(all).toEqual({ items: expect.any(Array), total: expect.any(Number), limit: 100, offset: 0 });
    const times = all.items.map((event) => Date.parse(event.occurred_at));
    expect(times).toEqual([...times].sort((a, b) => b - a));

    const byActor = await audit(`?actor=${encodeURIComponent(adminActor)}&limit=100`);
    expect(byActor.total).toBeGreaterThan(0);
    expect(byActor.items.every((event) => event.actor === adminActor)).toBe(true);
    expect(byActor.total).toBeLessThan(all.total);

    const byAction = await audit('?action=role.create&limit=100');
    expect(byAction.total).toBeGreaterThan(0);
    expect(byAction.items.every((event) => event.action === 'role.create')).toBe(true);

    const second = await audit('?limit=1&offset=1');
    expect(second).toEqual({ items: [all.items[1]], total: all.total, limit: 1, offset: 1 });

    const newest = all.items[0].occurred_at;
    const since = await audit(`?since=${encodeURIComponent(newest)}&limit=100`);
    expect(since.items.every((event) => event.occurred_at >= newest)).toBe(true);
    expect(since.total).toBeGreaterThan(0);
    expect(since.total).toBeLessThan(all.total);
    expect((await audit(`?since=${encodeURIComponent(new Date(Date.now() + DAY).toISOString())}`)).total).toBe(0);
  });

  it('filters on the target, and on a time range that includes since and excludes until', async () => {
    const role = await t.http
      .post('/api/roles')
      .send({ name: unique('role'), permissions: ['product:read'] })
      .expect(201);
    const id = String(role.body.id as number);
    await t.http
      .patch(`/api/roles/${id}`)
      .send({ permissions: ['article:read'] })
      .expect(200);
    const byTarget = await audit(`?target_type=role&target_id=${id}&limit=100`);
    expect(byTarget.items.map((event) => event.action)).toEqual(['role.update', 'role.create']);
    expect(byTarget.items.every((event) => event.target_type === 'role' && event.target_id === id)).toBe(true);
    const byType = await audit('?target_type=role&limit=100');
    expect(byType.total).toBeGreaterThan(byTarget.total);
    expect(byType.items.every((event) => event.target_type === 'role')).toBe(true);
    expect((await audit('?target_type=role&target_id=no-such-id')).total).toBe(0);

    const [updated, created] = byTarget.items;
    const range = (since: string, until: string) =>
      audit(`?target_type=role&target_id=${id}&since=${encodeURIComponent(since)}&until=${encodeURIComponent(until)}`);
    const later = new Date(Date.parse(updated.occurred_at) + 1).toISOString();
    expect((await range(created.occurred_at, later)).total).toBe(2);
    expect((await range(created.occurred_at, created.occurred_at)).total).toBe(0);
    const untilOnly = await audit(`?until=${encodeURIComponent(created.occurred_at)}&limit=100`);
    expect(untilOnly.items.every((event) => event.occurred_at < created.occurred_at)).toBe(true);
    expect(untilOnly.total).toBeGreaterThan(0);
  });

  it('refuses a since or until that is not a date-time, an over-long target, and bad paging', async () => {
    for (const since of ['yesterday', '2026-01-01', '2026-13-01T00:00:00Z']) {
      expectProblem(await t.http.get(`/api/audit-events?since=${since}`), 400);
      expectProblem(await t.http.get(`/api/audit-events?until=${since}`), 400);
    }
    expectProblem(await t.http.get(`/api/audit-events?target_type=${'x'.repeat(65)}`), 400);
    expectProblem(await t.http.get(`/api/audit-events?target_id=${'1'.repeat(65)}`), 400);
    expectProblem(await t.http.get('/api/audit-events?limit=0'), 400);
    expectProblem(await t.http.get('/api/audit-events?unknown=1'), 400);
  });

  it('needs audit:read', async () => {
    const { as: without } = await actingWith(['role:read', 'integration:read', 'user:read']);
    expectProblem(await without.get('/api/audit-events'), 403);
    const { as: reader } = await actingWith(['audit:read']);
    const res = await reader.get('/api/audit-events').expect(200);
    expect(res.body.total).toBeGreaterThan(0);
    expectProblem(await request(t.url).get('/api/audit-events'), 401);
  });

  it('deletes events older than AUDIT_RETENTION', async () => {
    const events = t.dataSource.getRepository(AuditEvent);
    const base = { clientId: null, targetType: null, targetId: null, outcome: 'success' as const };
    const extra = { requestId: null, sourceIp: null, details: null };
    await events.insert({
      ...base,
      ...extra,
      actor: 'user:old',
      action: 'role.create',
      occurredAt: Date.now() - 91 * DAY,
    });
    await events.insert({
      ...base,
      ...extra,
      actor: 'user:kept',
      action: 'role.create',
      occurredAt: Date.now() - 89 * DAY,
    });
    expect((await audit('?actor=user:old')).total).toBe(1);
    const total = (await audit()).total;

    await expect(t.app.get(AuditRetention).sweep()).resolves.toBe(1);

    expect((await audit('?actor=user:old')).total).toBe(0);
    expect((await audit('?actor=user:kept')).total).toBe(1);
    expect((await audit()).total).toBe(total - 1);
  });
});
