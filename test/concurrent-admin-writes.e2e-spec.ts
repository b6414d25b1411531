import request from 'supertest';
import type TestAgent from 'supertest/lib/agent.js';
import { verify } from '@octokit/webhooks-methods';
import { basic } from './support/admin-api.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import { startReceiver, type TestReceiver } from './support/webhook-receiver.js';

const TOKEN = '/api/oauth/token';
const PASSWORD = 'a-long-enough-password';
/** Each race is run this many times: one lost update is enough to fail, and on PostgreSQL it came on the first. */
const ROUNDS = 6;

interface Credentials {
  id: number;
  access_key_id: string;
  secret_access_key: string;
}

/**
 * Administration writes that race each other (issue 36, item 3): each read-decide-write holds what it decided on
 * until it commits, so two concurrent requests end as if one had run after the other. The races are real only on
 * PostgreSQL; SQLite runs one transaction at a time, and must end the same way.
 */
describe('Administration API: concurrent writes lose nothing', () => {
  let t: TestApp;
  /** Acts as an integration holding `*`: integrations do not count as administrators, so it outlives every round. */
  let as: TestAgent;
  let receiver: TestReceiver;
  let seq = 0;
  const unique = (prefix: string) => `${prefix}-${++seq}`;

  const clientToken = (id: string, secret: string) =>
    request(t.url)
      .post(TOKEN)
      .set('Authorization', basic(id, secret))
      .type('form')
      .send({ grant_type: 'client_credentials' });
  const created = async <T>(path: string, body: object) => (await as.post(path).send(body).expect(201)).body as T;
  const role = (permissions: string[]) =>
    created<{ id: number; name: string }>('/api/roles', { name: unique('role'), permissions });
  const user = (role: string) =>
    created<{ id: number }>('/api/users', { username: unique('user'), password: PASSWORD, role });
  const integration = (role: string) => created<Credentials>('/api/integrations', { label: unique('int'), role });
  /** What each answer was, sorted: `done` (200, 204), `refused` (409 last-administrator), or its status. */
  const outcomes = (answers: request.Response[]) =>
    answers
      .map((res) =>
        res.status === 200 || res.status === 204
          ? 'done'
          : res.body.type === '/problems/last-administrator'
            ? 'refused'
            : res.status,
      )
      .sort();
  /** The ids of the users whose role holds `*`. */
  const administrators = async () => {
    const roles = (await as.get('/api/roles?limit=100').expect(200)).body.items as Array<{
      name: string;
      permissions: string[];
    }>;
    const superRoles = new Set(roles.filter((r) => r.permissions.includes('*')).map((r) => r.name));
    const users = (await as.get('/api/users?limit=100').expect(200)).body.items as Array<{ id: number; role: string }>;
    return users.filter((u) => superRoles.has(u.role)).map((u) => u.id);
  };

  /** An administrator to start from (another test, failing, may have left none). */
  const anAdministrator = async () => (await administrators())[0] ?? (await user('admin')).id;

  beforeAll(async () => {
    t = await startTestApp({
      REVOCATION_CACHE_SECONDS: '0',
      TOKEN_FAILURES_PER_MINUTE: '1000',
      WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
      WEBHOOK_POLL_INTERVAL: '50ms',
    });
    receiver = await startReceiver();
    const root = (await t.http.post('/api/integrations').send({ label: 'root', role: 'admin' }).expect(201))
      .body as Credentials;
    const { access_token } = (await clientToken(root.access_key_id, root.secret_access_key).expect(200)).body;
    as = request.agent(t.url).set('Authorization', `Bearer ${access_token as string}`);
  });
  afterAll(async () => {
    await t.close({ destroy: true });
    await receiver.close();
  });

  it('keeps one administrator when the last two are demoted or deleted at the same time', async () => {
    const viewer = await role(['integration:read']);
    let kept = await anAdministrator();
    for (let round = 0; round < ROUNDS; round++) {
      // Two administrators: `kept`, and one more, through a role of its own holding `*` every other round.
      const superRole = round % 2 === 0 ? 'admin' : (await role(['*'])).name;
      const other = await user(superRole);
      const demote = (id: number) => as.patch(`/api/users/${id}`).send({ role: viewer.name });
      const remove = (id: number) => as.delete(`/api/users/${id}`);
      const races = [
        () => [demote(kept), demote(other.id)],
        () => [remove(kept), remove(other.id)],
        () => [demote(kept), remove(other.id)],
      ];
      const answers = await Promise.all(races[round % races.length]());
      expect([outcomes(answers), round]).toEqual([['done', 'refused'], round]);
      const left = await administrators();
      expect([left.length, round]).toEqual([1, round]);
      kept = left[0];
    }
  });

  it('keeps one administrator when a role loses `*` while the other administrator is demoted', async () => {
    const viewer = await role(['integration:read']);
    let kept = await anAdministrator();
    for (let round = 0; round < ROUNDS; round++) {
      const superRole = await role(['*']);
      const holder = await user(superRole.name);
      const answers = await Promise.all([
        as.patch(`/api/roles/${superRole.id}`).send({ permissions: ['integration:read'] }),
        as.patch(`/api/users/${kept}`).send({ role: viewer.name }),
      ]);
      expect([outcomes(answers), round]).toEqual([['done', 'refused'], round]);
      const left = await administrators();
      expect([left.length, round]).toEqual([1, round]);
      expect([holder.id, kept]).toContain(left[0]);
      kept = left[0];
    }
  });

  it('never answers 500 when a role is deleted while a user is given it', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const target = await role(['integration:read']);
      const someone = await user((await role(['integration:write'])).name);
      const [removed, given] = await Promise.all([
        as.delete(`/api/roles/${target.id}`),
        as.patch(`/api/users/${someone.id}`).send({ role: target.name }),
      ]);
      // Either order is fine: deleted first (the role is then unknown), or given first (the role is then in use).
      expect([[removed.status, given.status], round]).toEqual([
        removed.status === 204 ? [204, 404] : [409, 200],
        round,
      ]);
    }
  });

  it('a disabling and a relabelling at the same time leave the integration disabled and its tokens refused', async () => {
    const { name } = await role(['integration:read']);
    for (let round = 0; round < ROUNDS; round++) {
      const made = await integration(name);
      const { access_token } = (await clientToken(made.access_key_id, made.secret_access_key).expect(200)).body;
      const label = unique('relabelled');
      await Promise.all([
        as.patch(`/api/integrations/${made.id}`).send({ active: false }).expect(200),
        as.patch(`/api/integrations/${made.id}`).send({ label }).expect(200),
      ]);
      const stored = (await as.get(`/api/integrations/${made.id}`).expect(200)).body as Record<string, unknown>;
      expect([stored.active, stored.label, round]).toEqual([false, label, round]);
      const old = await request(t.url)
        .get('/api/integrations')
        .set('Authorization', `Bearer ${access_token as string}`);
      expect([old.status, round]).toEqual([401, round]);
      expect([(await clientToken(made.access_key_id, made.secret_access_key)).status, round]).toEqual([401, round]);
    }
  });

  it('concurrent rotations of an integration secret each answer a secret that works', async () => {
    const { name } = await role(['integration:read']);
    for (let round = 0; round < ROUNDS; round++) {
      const made = await integration(name);
      const rotations = await Promise.all(
        [1, 2].map(() => as.post(`/api/integrations/${made.id}/rotate-secret`).expect(200)),
      );
      // The later rotation's secret is the current one; the earlier's is the previous one, within its grace period.
      for (const rotated of rotations) {
        const res = await clientToken(made.access_key_id, rotated.body.secret_access_key as string);
        expect([res.status, round]).toEqual([200, round]);
      }
    }
  });

  it('concurrent rotations of a webhook secret each answer a secret the deliveries are signed with', async () => {
    const { id } = await created<{ id: number }>('/api/webhooks', { url: receiver.url, events: ['file.deleted'] });
    for (let round = 0; round < ROUNDS; round++) {
      const rotations = await Promise.all(
        [1, 2].map(() => as.post(`/api/webhooks/${id}/rotate-secret`).send({}).expect(200)),
      );
      const secrets = rotations.map((res) => res.body.secret as string);
      receiver.received.length = 0;
      await as.post(`/api/webhooks/${id}/ping`).expect(202);
      const [ping] = await receiver.waitFor(1);
      // Signed with the previous secret (the earlier rotation's) and the current one (the later's).
      const signatures = [ping.headers['x-signature'], ping.headers['x-signature-next']].filter(
        (sig): sig is string => typeof sig === 'string',
      );
      const signedWith = await Promise.all(
        secrets.map(async (secret) =>
          (await Promise.all(signatures.map((sig) => verify(secret, ping.raw, sig)))).some(Boolean),
        ),
      );
      expect([signedWith, round]).toEqual([[true, true], round]);
    }
  });
});
