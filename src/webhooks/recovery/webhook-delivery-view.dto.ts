import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import type { WebhookAttempt } from '../entities/webhook-attempt.entity.js';
import { DELIVERY_STATUSES, type DeliveryStatus } from '../entities/webhook-delivery.entity.js';
import type { DeliveryLogPage, LoggedDelivery } from './webhook-delivery-log.js';

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** One try at sending a delivery. */
@ApiSchema({ name: 'WebhookAttempt' })
export class WebhookAttemptDto {
  @ApiProperty({ format: 'date-time' }) attempted_at!: string;
  @ApiProperty({ type: 'integer', nullable: true, example: 200, description: 'null when no answer came' })
  status_code!: number | null;
  @ApiProperty({ type: String, nullable: true, example: null, description: 'Why the attempt failed, if it did' })
  error!: string | null;
  @ApiProperty({ type: 'integer', example: 87 }) duration_ms!: number;
  @ApiProperty({ type: String, nullable: true, example: 'ok', description: 'The first 2 KiB of the response body' })
  response_body!: string | null;

  static from(attempt: WebhookAttempt): WebhookAttemptDto {
    return Object.assign(new WebhookAttemptDto(), {
      attempted_at: new Date(attempt.attemptedAt).toISOString(),
      status_code: attempt.statusCode,
      error: attempt.error,
      duration_ms: attempt.durationMs,
      response_body: attempt.responseBody,
    });
  }
}

/** One event to one endpoint: its state and the log of its attempts. */
@ApiSchema({ name: 'WebhookDelivery' })
export class WebhookDeliveryDto {
  @ApiProperty({ type: 'integer', example: 12 }) id!: number;
  @ApiProperty({ example: 'evt_2f1c9a7e-0b4e-4a4f-9c55-0d0e3b1d2a11', description: 'The same on every retry' })
  event_id!: string;
  @ApiProperty({ example: 'file.created', description: "The event's kind: its `event` and X-Webhook-Event header" })
  event!: string;
  @ApiProperty({ enum: DELIVERY_STATUSES, example: 'succeeded' }) status!: DeliveryStatus;
  @ApiProperty({ type: 'integer', example: 1, description: 'Attempts made so far' }) attempts!: number;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'Set only while pending' })
  next_attempt_at!: string | null;
  @ApiProperty({ type: 'integer', nullable: true, example: 200 }) last_status_code!: number | null;
  @ApiProperty({ type: String, nullable: true, example: null }) last_error!: string | null;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) completed_at!: string | null;
  @ApiProperty({ type: [WebhookAttemptDto], description: 'Oldest first; kept for the retention period' })
  attempt_log!: WebhookAttemptDto[];

  static from({ delivery, event, attempts }: LoggedDelivery): WebhookDeliveryDto {
    return Object.assign(new WebhookDeliveryDto(), {
      id: delivery.id,
      event_id: delivery.eventId,
      event,
      status: delivery.status,
      attempts: delivery.attempts,
      next_attempt_at: delivery.status === 'pending' ? iso(delivery.nextAttemptAt) : null,
      last_status_code: delivery.lastStatusCode,
      last_error: delivery.lastError,
      created_at: new Date(delivery.createdAt).toISOString(),
      completed_at: iso(delivery.completedAt),
      attempt_log: attempts.map((attempt) => WebhookAttemptDto.from(attempt)),
    });
  }
}

/** A page of the delivery log of an endpoint, newest first. */
@ApiSchema({ name: 'WebhookDeliveryPage' })
export class WebhookDeliveryPageDto {
  @ApiProperty({ type: [WebhookDeliveryDto] }) items!: WebhookDeliveryDto[];
  @ApiProperty({ type: 'integer', example: 1, description: 'Deliveries matching the filter, over all pages' })
  total!: number;
  @ApiProperty({ type: 'integer', example: 20 }) limit!: number;
  @ApiProperty({ type: 'integer', example: 0 }) offset!: number;

  static from(page: DeliveryLogPage): WebhookDeliveryPageDto {
    return Object.assign(new WebhookDeliveryPageDto(), {
      items: page.items.map((logged) => WebhookDeliveryDto.from(logged)),
      total: page.total,
      limit: page.limit,
      offset: page.offset,
    });
  }
}
