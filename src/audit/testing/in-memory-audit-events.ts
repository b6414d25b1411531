import { copyRow as copy, type Public } from '@file-fields/nest/testing';
import { AuditEvent } from '../audit-event.entity.js';
import type {
  AuditEventFilter,
  AuditEventsRepository,
  NewAuditEvent,
} from '../repositories/audit-events.repository.js';
import { auditConfigFrom, type AuditConfig } from '../audit.config.js';

// Re-exported so a spec takes all its fakes from its own module.
export { asReal, FakeClock } from '@file-fields/nest/testing';

/* eslint-disable @typescript-eslint/require-await -- the fake answers at once, with the repository's signatures */

/** The settings of a test: the defaults, with the given variables on top. */
export function testAuditConfig(env: Record<string, string> = {}): AuditConfig {
  return auditConfigFrom(env);
}

/** An in-memory stand-in for the audit trail's table; `failWith` makes every call fail, as a database that is down. */
export class FakeAuditEventsRepository implements Public<AuditEventsRepository> {
  readonly rows: AuditEvent[] = [];
  failWith?: Error;
  deleteCalls = 0;

  async insert(event: NewAuditEvent): Promise<void> {
    this.check();
    this.rows.push(Object.assign(new AuditEvent(), { ...event, id: this.rows.length + 1 }));
  }

  async insertIn(_manager: unknown, events: NewAuditEvent[]): Promise<void> {
    for (const event of events) await this.insert(event);
  }

  async page(filter: AuditEventFilter, limit: number, offset: number): Promise<{ items: AuditEvent[]; total: number }> {
    this.check();
    const matching = this.rows
      .filter((row) => filter.actor === undefined || row.actor === filter.actor)
      .filter((row) => filter.action === undefined || row.action === filter.action)
      .filter((row) => filter.targetType === undefined || row.targetType === filter.targetType)
      .filter((row) => filter.targetId === undefined || row.targetId === filter.targetId)
      .filter((row) => filter.since === undefined || row.occurredAt >= filter.since)
      .filter((row) => filter.until === undefined || row.occurredAt < filter.until)
      .sort((a, b) => b.occurredAt - a.occurredAt || b.id - a.id);
    return { items: matching.slice(offset, offset + limit).map(copy), total: matching.length };
  }

  async deleteOccurredBefore(before: number, batchSize: number): Promise<number> {
    this.check();
    this.deleteCalls++;
    const old = this.rows.filter((row) => row.occurredAt < before).slice(0, batchSize);
    for (const row of old) this.rows.splice(this.rows.indexOf(row), 1);
    return old.length;
  }

  private check(): void {
    if (this.failWith) throw this.failWith;
  }
}
