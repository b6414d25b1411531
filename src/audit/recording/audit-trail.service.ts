import { Injectable, Logger } from '@nestjs/common';
import { Clock } from '@file-fields/nest';
import { isSaneRequestId } from '../../common/logging/log-lines.js';
import type { AuditEvent, AuditOutcome } from '../audit-event.entity.js';
import type { EntityManager } from 'typeorm';
import {
  AuditEventsRepository,
  type AuditEventFilter,
  type NewAuditEvent,
} from '../repositories/audit-events.repository.js';

/** Where a request came from: its request id (X-Request-Id) and the client's address (TRUST_PROXY honoured). */
export interface AuditOrigin {
  requestId?: string | null;
  sourceIp?: string | null;
}

/** What a part of the service tells the audit trail; never a secret, only ids, names and field names. */
export interface AuditRecord extends AuditOrigin {
  actor: string;
  clientId?: string | null;
  action: string;
  targetType?: string | null;
  targetId?: string | number | null;
  outcome?: AuditOutcome;
  /** Small, secret-free facts: e.g. `{ fields: ['label'] }` or `{ reason: 'invalid_grant' }`. */
  details?: Record<string, unknown>;
}

const ACTOR_MAX = 100;
const FIELD_MAX = 64;
const DETAILS_MAX = 2000;

const cut = (value: string | null | undefined, max: number) =>
  value === undefined || value === null ? null : value.slice(0, max);

/**
 * The audit trail: records who changed what through the administration API and who signed in. Recording never
 * throws: a failure to write is logged as an error, so that the answer to a change already made is not lost.
 */
@Injectable()
export class AuditTrail {
  private readonly logger = new Logger(AuditTrail.name);

  constructor(
    private readonly events: AuditEventsRepository,
    private readonly clock: Clock,
  ) {}

  /** Appends one event; resolves even when the database refuses it (the failure is logged). */
  async record(record: AuditRecord): Promise<void> {
    const event = this.eventOf(record);
    try {
      await this.events.insert(event);
    } catch (error) {
      // The event itself holds no secret, so it is logged in full: the trail can be completed from the logs.
      this.logger.error({ err: error, auditEvent: event }, 'Could not record an audit event');
    }
  }

  /**
   * Appends events in the transaction of the change they describe, in one insert: they commit with it or not at all,
   * and a failure to write them fails the change (the caller's transaction rolls back).
   */
  async recordIn(manager: EntityManager, records: readonly AuditRecord[]): Promise<void> {
    if (records.length > 0)
      await this.events.insertIn(
        manager,
        records.map((record) => this.eventOf(record)),
      );
  }

  private eventOf(record: AuditRecord): NewAuditEvent {
    const details = record.details === undefined ? null : JSON.stringify(record.details);
    return {
      occurredAt: this.clock.nowMs(),
      actor: record.actor.slice(0, ACTOR_MAX),
      clientId: cut(record.clientId, ACTOR_MAX),
      action: record.action.slice(0, FIELD_MAX),
      targetType: cut(record.targetType, FIELD_MAX),
      targetId: cut(
        record.targetId === undefined || record.targetId === null ? null : String(record.targetId),
        FIELD_MAX,
      ),
      outcome: record.outcome ?? 'success',
      // Checked here too, whoever passes it: a caller's X-Request-Id ends up in the trail only when sane and bounded.
      requestId: isSaneRequestId(record.requestId) ? record.requestId : null,
      sourceIp: cut(record.sourceIp, FIELD_MAX),
      details: details !== null && details.length > DETAILS_MAX ? null : details,
    };
  }

  /** A page of the trail, newest first. */
  page(filter: AuditEventFilter, limit: number, offset: number): Promise<{ items: AuditEvent[]; total: number }> {
    return this.events.page(filter, limit, offset);
  }
}
