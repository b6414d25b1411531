import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { bigintNumber } from '@file-fields/nest';

/** How a recorded attempt ended: done, refused for lack of permission (403), or failed (a wrong password). */
export const AUDIT_OUTCOMES = ['success', 'denied', 'failure'] as const;
export type AuditOutcome = (typeof AUDIT_OUTCOMES)[number];

/** One change made through the administration API, or one sign-in; never holds a secret. */
@Entity({ name: 'audit_events' })
@Index('ix_audit_events_target', ['targetType', 'targetId'])
export class AuditEvent {
  @PrimaryGeneratedColumn()
  id!: number;

  @Index('ix_audit_events_occurred_at')
  @Column({ name: 'occurred_at', type: 'bigint', transformer: bigintNumber })
  occurredAt!: number;

  /** `user:<id>`, `integration:<id>`, `anonymous` for a failed sign-in, `cli` for the command line. */
  @Index('ix_audit_events_actor')
  @Column({ type: 'varchar', length: 100 })
  actor!: string;

  @Column({ name: 'client_id', type: 'varchar', length: 100, nullable: true })
  clientId!: string | null;

  /** `<target type>.<verb>`, e.g. `integration.rotate-secret`, or `sign-in.succeeded`. */
  @Index('ix_audit_events_action')
  @Column({ type: 'varchar', length: 64 })
  action!: string;

  @Column({ name: 'target_type', type: 'varchar', length: 64, nullable: true })
  targetType!: string | null;

  @Column({ name: 'target_id', type: 'varchar', length: 64, nullable: true })
  targetId!: string | null;

  @Column({ type: 'varchar', length: 16 })
  outcome!: AuditOutcome;

  @Column({ name: 'request_id', type: 'varchar', length: 128, nullable: true })
  requestId!: string | null;

  @Column({ name: 'source_ip', type: 'varchar', length: 64, nullable: true })
  sourceIp!: string | null;

  /** A small JSON object: names of changed fields, a refusal's problem code, a failure's reason; never a value. */
  @Column({ type: 'text', nullable: true })
  details!: string | null;
}
