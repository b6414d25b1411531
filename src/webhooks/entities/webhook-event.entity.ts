import { Column, Entity, PrimaryColumn } from 'typeorm';
import { bigintNumber } from '@file-fields/nest';

/** The outbox: an event, written in the same transaction as the change that caused it. */
@Entity({ name: 'webhook_events' })
export class WebhookEvent {
  /** `evt_<uuid>`: the same on every retry and redelivery. */
  @PrimaryColumn({ type: 'varchar', length: 64 })
  id!: string;

  @Column({ type: 'varchar', length: 64 })
  kind!: string;

  @Column({ type: 'simple-json' })
  data!: Record<string, unknown>;

  @Column({ name: 'created_at', type: 'bigint', transformer: bigintNumber })
  createdAt!: number;
}
