import { Column, Entity, ForeignKey, Index, PrimaryGeneratedColumn } from 'typeorm';
import { WebhookEndpoint } from './webhook-endpoint.entity.js';
import { WebhookEvent } from './webhook-event.entity.js';
import { bigintNumber } from '@file-fields/nest';

export const DELIVERY_STATUSES = ['pending', 'succeeded', 'failed', 'skipped'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** One event to one endpoint: its state, its schedule, and the lease of the instance sending it. */
@Entity({ name: 'webhook_deliveries' })
@Index('ix_webhook_deliveries_due', ['status', 'nextAttemptAt'])
@Index('ix_webhook_deliveries_endpoint', ['endpointId', 'status', 'createdAt'])
@Index('ix_webhook_deliveries_ordering', ['endpointId', 'orderingKey', 'id'], {
  where: "status = 'pending' AND ordering_key IS NOT NULL",
})
export class WebhookDelivery {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ name: 'event_id', type: 'varchar', length: 64 })
  @ForeignKey(() => WebhookEvent)
  eventId!: string;

  @Column({ name: 'endpoint_id', type: 'integer' })
  @ForeignKey(() => WebhookEndpoint, { onDelete: 'CASCADE' })
  endpointId!: number;

  @Column({ type: 'varchar', length: 16 })
  status!: DeliveryStatus;

  /**
   * The entity the event is about, for an endpoint ordered per entity: a pending delivery waits for every pending one
   * of its endpoint and key with a smaller id. Null: no order to keep.
   */
  @Column({ name: 'ordering_key', type: 'varchar', length: 200, nullable: true })
  orderingKey!: string | null;

  @Column({ type: 'integer', default: 0 })
  attempts!: number;

  @Column({ name: 'next_attempt_at', type: 'bigint', transformer: bigintNumber })
  nextAttemptAt!: number;

  @Column({ name: 'lease_owner', type: 'varchar', length: 64, nullable: true })
  leaseOwner!: string | null;

  @Column({ name: 'lease_until', type: 'bigint', nullable: true, transformer: bigintNumber })
  leaseUntil!: number | null;

  @Column({ name: 'last_status_code', type: 'integer', nullable: true })
  lastStatusCode!: number | null;

  @Column({ name: 'last_error', type: 'varchar', length: 500, nullable: true })
  lastError!: string | null;

  @Column({ name: 'created_at', type: 'bigint', transformer: bigintNumber })
  createdAt!: number;

  @Column({ name: 'completed_at', type: 'bigint', nullable: true, transformer: bigintNumber })
  completedAt!: number | null;

  /** When a recovery re-queued it: it then gets one attempt, never retried. */
  @Column({ name: 'recovered_at', type: 'bigint', nullable: true, transformer: bigintNumber })
  recoveredAt!: number | null;
}
