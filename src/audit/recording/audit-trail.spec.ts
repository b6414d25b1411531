import { jest } from '@jest/globals';
import { Logger } from '@nestjs/common';
import { AuditRetention, AUDIT_SWEEP_BATCH } from '../audit-retention.js';
import { AuditTrail } from './audit-trail.service.js';
import { asReal, FakeAuditEventsRepository, FakeClock, testAuditConfig } from '../testing/in-memory-audit-events.js';

const DAY = 86_400_000;

describe('AuditTrail', () => {
  afterEach(() => jest.restoreAllMocks());

  it('records an event with the time, cutting over-long values to their columns', async () => {
    const clock = new FakeClock();
    const events = new FakeAuditEventsRepository();
    const trail = new AuditTrail(asReal(events), clock);

    await trail.record({
      actor: `username:${'a'.repeat(300)}`,
      clientId: 'administration',
      action: 'sign-in.failed',
      outcome: 'failure',
      requestId: 'req-1',
      sourceIp: '127.0.0.1',
      details: { reason: 'unknown-username' },
    });
    await trail.record({ actor: 'user:1', action: 'role.delete', targetType: 'role', targetId: 7 });

    expect(events.rows[0]).toMatchObject({
      occurredAt: clock.nowMs(),
      clientId: 'administration',
      action: 'sign-in.failed',
      outcome: 'failure',
      targetType: null,
      targetId: null,
      requestId: 'req-1',
      sourceIp: '127.0.0.1',
      details: '{"reason":"unknown-username"}',
    });
    expect(events.rows[0].actor).toHaveLength(100);
    expect(events.rows[1]).toMatchObject({ outcome: 'success', targetId: '7', requestId: null, details: null });
  });

  it('logs a failure to write and resolves, so the answer to the change is not lost', async () => {
    const events = new FakeAuditEventsRepository();
    events.failWith = new Error('database is down');
    const logged = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);

    await expect(
      new AuditTrail(asReal(events), new FakeClock()).record({ actor: 'user:1', action: 'x' }),
    ).resolves.toBe(undefined);
    expect(logged).toHaveBeenCalledWith(
      expect.objectContaining({ auditEvent: expect.objectContaining({ actor: 'user:1' }) }),
      'Could not record an audit event',
    );
  });

  it('pages newest first, filtered on actor, action and time', async () => {
    const clock = new FakeClock();
    const events = new FakeAuditEventsRepository();
    const trail = new AuditTrail(asReal(events), clock);
    for (const actor of ['user:1', 'user:2', 'user:1']) {
      await trail.record({ actor, action: 'role.create' });
      clock.advance(1000);
    }
    const all = await trail.page({}, 20, 0);
    expect(all.items.map((event) => event.id)).toEqual([3, 2, 1]);
    expect((await trail.page({ actor: 'user:1' }, 1, 1)).items.map((event) => event.id)).toEqual([1]);
    expect((await trail.page({ since: all.items[1].occurredAt }, 20, 0)).total).toBe(2);
    expect((await trail.page({ until: all.items[1].occurredAt }, 20, 0)).items.map((event) => event.id)).toEqual([1]);
  });
});

describe('AuditRetention', () => {
  afterEach(() => jest.restoreAllMocks());

  it('deletes events older than AUDIT_RETENTION, in batches, and keeps the rest', async () => {
    const logged = jest.spyOn(Logger.prototype, 'log').mockImplementation(() => undefined);
    const clock = new FakeClock();
    const events = new FakeAuditEventsRepository();
    const retention = new AuditRetention(asReal(events), testAuditConfig({ AUDIT_RETENTION: '30d' }), clock);
    const now = clock.nowMs();
    const add = (occurredAt: number) => events.insert({ ...baseEvent, occurredAt });
    for (let i = 0; i < AUDIT_SWEEP_BATCH + 5; i++) await add(now - 31 * DAY);
    await add(now - 29 * DAY);

    await expect(retention.sweep()).resolves.toBe(AUDIT_SWEEP_BATCH + 5);
    expect(events.deleteCalls).toBe(2);
    expect(events.rows.map((row) => row.occurredAt)).toEqual([now - 29 * DAY]);
    expect(logged).toHaveBeenCalledWith(
      { deleted: AUDIT_SWEEP_BATCH + 5 },
      'Removed audit events past AUDIT_RETENTION',
    );
  });

  it('keeps 90 days by default', () => {
    expect(testAuditConfig().retentionMs).toBe(90 * DAY);
    expect(() => testAuditConfig({ AUDIT_RETENTION: 'forever' })).toThrow(/AUDIT_RETENTION/);
  });

  it('logs a warning and resolves when the database fails', async () => {
    const events = new FakeAuditEventsRepository();
    events.failWith = new Error('database is down');
    const warned = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    const retention = new AuditRetention(asReal(events), testAuditConfig(), new FakeClock());

    await expect(retention.sweep()).resolves.toBe(0);
    expect(warned).toHaveBeenCalledWith(
      expect.objectContaining({ err: events.failWith }),
      'Audit retention sweep failed',
    );
  });
});

const baseEvent = {
  actor: 'user:1',
  clientId: 'administration',
  action: 'role.create',
  targetType: 'role',
  targetId: '1',
  outcome: 'success' as const,
  requestId: null,
  sourceIp: null,
  details: null,
};
