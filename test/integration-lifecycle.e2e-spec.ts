import { jest } from '@jest/globals';
import request from 'supertest';
import { setTimeout as sleep } from 'node:timers/promises';
import { Clock } from '@file-fields/nest';
import { IntegrationsRepository } from '../src/token/repositories/integrations.repository.js';
import { basic } from './support/admin-api.js';
import { expectProblem } from './support/fixtures.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import { eventually } from './support/wait.js';

const TOKEN = '/api/oauth/token';

interface IntegrationBody {
  id: number;
  access_key_id: string;
  secret_access_key: string;
  expires_at: string | null;
  owner: string | null;
  last_used_at: string | null;
  previous_secret_active: boolean;
  previous_secret_expires_at: string | null;
}

/** Credential lifecycle: an integration's expiry and owner. */
describe('Integrations: expires_at and owner', () => {
  let t: TestApp;
  let roleName: string;

  const create = async (body: Record<string, unknown>) =>
    (
      await t.http
        .post('/api/integrations')
        .send({ label: 'lifecycle', role: roleName, ...body })
        .expect(201)
    ).body as IntegrationBody;
  const tokenRequest = (integration: IntegrationBody) =>
    request(t.url)
      .post(TOKEN)
      .set('Authorization', basic(integration.access_key_id, integration.secret_access_key))
      .type('form')
      .send({ grant_type: 'client_credentials' });
  const inMinutes = (minutes: number) => new Date(Date.now() + minutes * 60_000).toISOString();

  beforeAll(async () => {
    // No cached revocation state: an expired integration's tokens are refused on the next request.
    t = await startTestApp({ TOKEN_FAILURES_PER_MINUTE: '1000', REVOCATION_CACHE_SECONDS: '0' });
    roleName = `lifecycle-${Math.random().toString(36).slice(2, 10)}`;
    await t.http
      .post('/api/roles')
      .send({ name: roleName, permissions: ['integration:read'] })
      .expect(201);
  });
  afterEach(() => jest.restoreAllMocks());
  afterAll(async () => t.close({ destroy: true }));

  it('stops issuing tokens and refuses live ones once expires_at has passed; clearing it revives issuance', async () => {
    const expiresAt = inMinutes(1);
    const integration = await create({ expires_at: expiresAt });
    expect(integration.expires_at).toBe(new Date(expiresAt).toISOString());

    const issued = await tokenRequest(integration).expect(200);
    const token = issued.body.access_token as string;
    const asIntegration = () => request(t.url).get('/api/integrations').set('Authorization', `Bearer ${token}`);
    await asIntegration().expect(200);

    const clock = t.app.get(Clock);
    const real = clock.nowMs.bind(clock);
    jest.spyOn(clock, 'nowMs').mockImplementation(() => real() + 2 * 60_000);

    const refused = await tokenRequest(integration);
    expect(refused.status).toBe(401);
    expect(refused.headers['cache-control']).toBe('no-store');
    expect(refused.body).toEqual({ error: 'invalid_client', error_description: expect.any(String) });
    await eventually('the expired integration’s access token to be refused', async () =>
      (await asIntegration()).status === 401 ? true : undefined,
    );

    const revived = await t.http.patch(`/api/integrations/${integration.id}`).send({ expires_at: null }).expect(200);
    expect(revived.body.expires_at).toBeNull();
    const fresh = await tokenRequest(integration).expect(200);
    await request(t.url).get('/api/integrations').set('Authorization', `Bearer ${fresh.body.access_token}`).expect(200);
    // Reviving the integration does not revive the tokens it had when it expired.
    expect((await asIntegration()).status).toBe(401);
  });

  it('refuses an expires_at that is not in the future, on create and on PATCH', async () => {
    const past = new Date(Date.now() - 60_000).toISOString();
    const created = await t.http.post('/api/integrations').send({ label: 'x', role: roleName, expires_at: past });
    expect(expectProblem(created, 400, 'validation-failed').detail).toContain('expires_at');
    expectProblem(
      await t.http.post('/api/integrations').send({ label: 'x', role: roleName, expires_at: 'tomorrow' }),
      400,
      'validation-failed',
    );

    const integration = await create({});
    expect(integration.expires_at).toBeNull();
    const patched = await t.http.patch(`/api/integrations/${integration.id}`).send({ expires_at: past });
    expectProblem(patched, 400, 'validation-failed');
    const shown = await t.http.get(`/api/integrations/${integration.id}`).expect(200);
    expect(shown.body.expires_at).toBeNull();
  });

  it('keeps a free-text owner of at most 200 characters, PATCH-able and clearable', async () => {
    const integration = await create({ owner: 'team-erp@example.com' });
    expect(integration.owner).toBe('team-erp@example.com');
    expect((await t.http.get(`/api/integrations/${integration.id}`).expect(200)).body.owner).toBe(
      'team-erp@example.com',
    );

    const renamed = await t.http
      .patch(`/api/integrations/${integration.id}`)
      .send({ owner: 'Platform team' })
      .expect(200);
    expect(renamed.body.owner).toBe('Platform team');
    expectProblem(
      await t.http.patch(`/api/integrations/${integration.id}`).send({ owner: 'x'.repeat(201) }),
      400,
      'validation-failed',
    );
    const cleared = await t.http.patch(`/api/integrations/${integration.id}`).send({ owner: null }).expect(200);
    expect(cleared.body.owner).toBeNull();
  });

  it('keeps a last_used_at written while an administrator edits the integration', async () => {
    const integration = await create({});
    const rows = t.app.get(IntegrationsRepository);
    const findForUpdate = rows.findForUpdate.bind(rows);
    let used: Promise<void> | undefined;
    // A token request records its use between the edit's read and its write (on PostgreSQL it waits for the row lock).
    jest.spyOn(rows, 'findForUpdate').mockImplementation(async (id, tx) => {
      const found = await findForUpdate(id, tx);
      used ??= rows.markUsed(integration.id, Date.now());
      await Promise.race([used, sleep(200)]);
      return found;
    });
    const edited = await t.http.patch(`/api/integrations/${integration.id}`).send({ label: 'renamed' }).expect(200);
    await used;
    jest.restoreAllMocks();
    expect(edited.body.label).toBe('renamed');
    const shown = (await t.http.get(`/api/integrations/${integration.id}`).expect(200)).body as IntegrationBody;
    expect(shown.last_used_at).toEqual(expect.any(String));
  });

  it('lists and shows last_used_at, expires_at, owner and previous_secret_active', async () => {
    const expiresAt = inMinutes(60);
    const integration = await create({ expires_at: expiresAt, owner: 'ops' });
    expect(integration.last_used_at).toBeNull();
    expect(integration.previous_secret_active).toBe(false);
    await tokenRequest(integration).expect(200);
    await t.http.post(`/api/integrations/${integration.id}/rotate-secret`).expect(200);

    // last_used_at is written after the token's answer (at most once a minute).
    const listed = await eventually('last_used_at to be recorded', async () => {
      const all = (await t.http.get('/api/integrations?limit=100').expect(200)).body.items as IntegrationBody[];
      const shown = all.find((candidate) => candidate.id === integration.id);
      return shown?.last_used_at ? shown : undefined;
    });
    expect(listed).toEqual(
      expect.objectContaining({
        expires_at: new Date(expiresAt).toISOString(),
        owner: 'ops',
        last_used_at: expect.any(String),
        previous_secret_active: true,
        previous_secret_expires_at: expect.any(String),
      }),
    );

    const expired = await t.http.delete(`/api/integrations/${integration.id}/previous-secret`).expect(200);
    expect(expired.body.previous_secret_active).toBe(false);
    expect(expired.body.previous_secret_expires_at).toBeNull();
  });
});
