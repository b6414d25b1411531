import { AuditTrail } from './audit-trail.service.js';
import { asReal, FakeAuditEventsRepository, FakeClock } from '../testing/in-memory-audit-events.js';

describe('AuditTrail: request ids', () => {
  it('records a request id only when it follows the rule of X-Request-Id, whoever passes it', async () => {
    const events = new FakeAuditEventsRepository();
    const trail = new AuditTrail(asReal(events), new FakeClock());
    const ids = ['req-1', 'trace.42:a_b', 'x'.repeat(128), 'x'.repeat(129), 'with space', 'line\nbreak', '<b>', ''];
    for (const requestId of ids) await trail.record({ actor: 'user:1', action: 'x', requestId });
    expect(events.rows.map((row) => row.requestId)).toEqual([
      'req-1',
      'trace.42:a_b',
      'x'.repeat(128),
      null,
      null,
      null,
      null,
      null,
    ]);
  });
});
