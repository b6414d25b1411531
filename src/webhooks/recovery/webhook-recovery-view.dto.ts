import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { RECOVERY_LIMIT, type RecoveryResult } from './webhook-recovery.service.js';

/** The answer to a recovery: how many deliveries were re-queued, and where a further call would go on. */
@ApiSchema({ name: 'WebhookRecovery' })
export class WebhookRecoveryDto {
  @ApiProperty({
    type: 'integer',
    example: 42,
    description: 'Deliveries re-queued: each gets one new attempt, with its event id, oldest first',
  })
  requeued!: number;
  @ApiProperty({
    type: 'integer',
    example: 0,
    description: `Deliveries of the window left for a further call (more than ${RECOVERY_LIMIT} matched)`,
  })
  remaining!: number;
  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    example: null,
    description:
      'Set when `remaining` > 0: the `since` of the call that goes on (same `until`), once this recovery has ' +
      'finished (409 until then)',
  })
  next_since!: string | null;
  @ApiProperty({ format: 'date-time' }) since!: string;
  @ApiProperty({ format: 'date-time', description: 'The end of the window: the time of the call when not given' })
  until!: string;

  static from(result: RecoveryResult): WebhookRecoveryDto {
    return Object.assign(new WebhookRecoveryDto(), {
      requeued: result.requeued,
      remaining: result.remaining,
      next_since: result.nextSince === null ? null : new Date(result.nextSince).toISOString(),
      since: new Date(result.since).toISOString(),
      until: new Date(result.until).toISOString(),
    });
  }
}
