import request from 'supertest';
import { ADMIN_PASSWORD, startTestApp, type TestApp } from './support/test-app.js';

interface AuditEventBody {
  actor: string;
  action: string;
  target_type: string | null;
  target_id: string | null;
  request_id: string | null;
  details: Record<string, unknown> | null;
}

/*
 * What the audit trail keeps of a failed sign-in, and of the request id a caller chose: a username that names no one
 * is often a password typed into the wrong field, and an X-Request-Id is whatever a caller sent.
 */
describe('Audit trail: keeps no mistyped secret and no request id a caller made up', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => t.close({ destroy: true }));

  const signIn = (username: string, password: string, requestId?: string) => {
    const req = request(t.url).post('/api/oauth/token');
    if (requestId !== undefined) req.set('X-Request-Id', requestId);
    return req.send({ grant_type: 'password', client_id: 'administration', username, password });
  };
  const failedSignIns = async () =>
    (
      (await t.http.get('/api/audit-events?action=sign-in.failed&limit=100').expect(200)).body as {
        items: AuditEventBody[];
      }
    ).items;

  it('records a failed sign-in without the username typed', async () => {
    const typed = 'Correct-Horse-Battery-Staple-42';
    const res = await signIn(typed, 'whatever-was-typed-here').expect(400);
    const event = (await failedSignIns()).find((item) => item.request_id === res.headers['x-request-id']);
    expect(event).toMatchObject({ actor: 'anonymous', target_id: null, details: { reason: 'unknown-username' } });
    const trail = JSON.stringify((await t.http.get('/api/audit-events?limit=100').expect(200)).body);
    expect(trail).not.toContain(typed);
    expect(trail.toLowerCase()).not.toContain(typed.toLowerCase());
  });

  it('names the account a wrong password was given for as the target, not as the actor', async () => {
    const res = await signIn('admin', `${ADMIN_PASSWORD}-not`).expect(400);
    const event = (await failedSignIns()).find((item) => item.request_id === res.headers['x-request-id']);
    expect(event).toMatchObject({ actor: 'anonymous', target_type: 'user', details: { reason: 'wrong-password' } });
    expect(event?.target_id).toMatch(/^\d+$/);
  });

  it('keeps a sane X-Request-Id, and records a generated one in place of any other', async () => {
    const sane = 'trace-42.abc:def_1';
    const kept = await signIn('nobody', 'wrong-password-1', sane).expect(400);
    expect(kept.headers['x-request-id']).toBe(sane);
    for (const insane of ['a'.repeat(129), 'two words', 'x<script>', '']) {
      const res = await signIn('nobody', 'wrong-password-2', insane).expect(400);
      expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    }
    const ids = (await failedSignIns()).map((event) => event.request_id);
    expect(ids).toContain(sane);
    for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9._:-]{1,128}$/);
  });
});
