import { Injectable } from '@nestjs/common';
import { InjectEntityManager } from '@nestjs/typeorm';
import { And, In, LessThan, MoreThanOrEqual, type EntityManager, type FindOptionsWhere } from 'typeorm';
import { AuditEvent } from '../audit-event.entity.js';

export type NewAuditEvent = Omit<AuditEvent, 'id'>;

/** What a page of the audit trail is filtered on (every given field must match). */
export interface AuditEventFilter {
  actor?: string;
  action?: string;
  targetType?: string;
  targetId?: string;
  /** Epoch ms: events that occurred at or after it. */
  since?: number;
  /** Epoch ms: events that occurred before it. */
  until?: number;
}

/** The audit trail's table: appended to, read newest first, trimmed from the oldest end. */
@Injectable()
export class AuditEventsRepository {
  constructor(@InjectEntityManager() private readonly db: EntityManager) {}

  async insert(event: NewAuditEvent): Promise<void> {
    await this.db.insert(AuditEvent, event);
  }

  /** Appends events in one statement, in the transaction of `manager`. */
  async insertIn(manager: EntityManager, events: NewAuditEvent[]): Promise<void> {
    await manager.insert(AuditEvent, events);
  }

  /** Events matching the filter, newest first, and how many match over all pages. */
  async page(filter: AuditEventFilter, limit: number, offset: number): Promise<{ items: AuditEvent[]; total: number }> {
    const where: FindOptionsWhere<AuditEvent> = {};
    if (filter.actor !== undefined) where.actor = filter.actor;
    if (filter.action !== undefined) where.action = filter.action;
    if (filter.targetType !== undefined) where.targetType = filter.targetType;
    if (filter.targetId !== undefined) where.targetId = filter.targetId;
    const occurred = timeRange(filter.since, filter.until);
    if (occurred) where.occurredAt = occurred;
    const [items, total] = await this.db.findAndCount(AuditEvent, {
      where,
      order: { occurredAt: 'DESC', id: 'DESC' },
      take: limit,
      skip: offset,
    });
    return { items, total };
  }

  /** Deletes up to `batchSize` of the events that occurred before `before`, oldest first; answers how many. */
  async deleteOccurredBefore(before: number, batchSize: number): Promise<number> {
    const old = await this.db.find(AuditEvent, {
      select: { id: true },
      where: { occurredAt: LessThan(before) },
      order: { id: 'ASC' },
      take: batchSize,
    });
    if (old.length === 0) return 0;
    await this.db.delete(AuditEvent, { id: In(old.map((event) => event.id)) });
    return old.length;
  }
}

/** `[since, until)` as a condition on occurred_at; undefined when neither bound is given. */
function timeRange(since: number | undefined, until: number | undefined) {
  if (since !== undefined && until !== undefined) return And(MoreThanOrEqual(since), LessThan(until));
  if (since !== undefined) return MoreThanOrEqual(since);
  return until === undefined ? undefined : LessThan(until);
}
