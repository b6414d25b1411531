import { Column, Entity, ForeignKey, Index, PrimaryGeneratedColumn } from 'typeorm';
import { WebhookDelivery } from './webhook-delivery.entity.js';
import { bigintNumber } from '@file-fields/nest';

/** One try at sending a delivery, kept for the retention period. */
@Entity({ name: 'webhook_attempts' })
@Index('ix_webhook_attempts_delivery', ['deliveryId'])
export class WebhookAttempt {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ name: 'delivery_id', type: 'integer' })
  @ForeignKey(() => WebhookDelivery, { onDelete: 'CASCADE' })
  deliveryId!: number;

  @Column({ name: 'attempted_at', type: 'bigint', transformer: bigintNumber })
  attemptedAt!: number;

  @Column({ name: 'status_code', type: 'integer', nullable: true })
  statusCode!: number | null;

  @Column({ type: 'varchar', length: 500, nullable: true })
  error!: string | null;

  @Column({ name: 'duration_ms', type: 'integer' })
  durationMs!: number;

  /** The first 2 KiB of the response body. */
  @Column({ name: 'response_body', type: 'text', nullable: true })
  responseBody!: string | null;
}
