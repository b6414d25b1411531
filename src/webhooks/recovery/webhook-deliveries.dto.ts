import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import {
  ArrayMinSize,
  ArrayUnique,
  IsArray,
  IsIn,
  IsOptional,
  IsRFC3339,
  IsString,
  MaxLength,
  ValidateBy,
  type ValidationArguments,
} from 'class-validator';
import { ListQueryDto } from '@file-fields/nest';
import { IsOmittable } from '../../common/dto/is-omittable.js';
import { DELIVERY_STATUSES, type DeliveryStatus } from '../entities/webhook-delivery.entity.js';
import { RECOVERABLE_STATUSES, RECOVERY_LIMIT, type RecoverableStatus } from './webhook-recovery.service.js';

@ApiSchema({ name: 'DeliveriesQuery' })
export class DeliveriesQueryDto extends ListQueryDto {
  @ApiPropertyOptional({ enum: DELIVERY_STATUSES })
  @IsOptional()
  @IsIn(DELIVERY_STATUSES)
  status?: DeliveryStatus;

  @ApiPropertyOptional({ example: 'file.created', description: 'Only deliveries of events of this kind' })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  event?: string;

  @ApiPropertyOptional({
    example: 'evt_2f1c9a7e-0b4e-4a4f-9c55-0d0e3b1d2a11',
    description: 'Only the delivery of this event (its `id`, the `X-Webhook-Id` or `webhook-id` a receiver got)',
  })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  event_id?: string;
}

/** Refuses a time that is not later than the (valid) time in the property `earlier`. */
function IsLaterThan(earlier: string): PropertyDecorator {
  const earlierOf = (args?: ValidationArguments) =>
    Date.parse(String((args?.object as Record<string, unknown>)[earlier]));
  return ValidateBy({
    name: 'isLaterThan',
    validator: {
      validate: (value: unknown, args?: ValidationArguments) =>
        Number.isNaN(earlierOf(args)) || (typeof value === 'string' && Date.parse(value) > earlierOf(args)),
      defaultMessage: (args?: ValidationArguments) => `${args?.property ?? 'value'} must be later than ${earlier}`,
    },
  });
}

/** `POST /api/webhooks/{id}/recover`: which deliveries of the endpoint to send again. */
@ApiSchema({ name: 'RecoverWebhookDeliveries' })
export class RecoverWebhookDeliveriesDto {
  @ApiProperty({ format: 'date-time', example: '2026-11-22T08:00:00Z', description: 'Deliveries created at or after' })
  @IsRFC3339()
  since!: string;

  @ApiPropertyOptional({
    format: 'date-time',
    example: '2026-11-22T12:00:00Z',
    description: 'Deliveries created before this time, later than `since`; default: now',
  })
  // Absent means now; null is no time at all, refused like any other non-time.
  @IsOmittable()
  @IsRFC3339()
  @IsLaterThan('since')
  until?: string;

  @ApiPropertyOptional({
    enum: RECOVERABLE_STATUSES,
    isArray: true,
    default: [...RECOVERABLE_STATUSES],
    description:
      'Which deliveries: failed (retries exhausted, or 410 Gone), skipped (the endpoint was disabled); ' +
      `at most ${RECOVERY_LIMIT} per call`,
  })
  @IsOptional()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayUnique()
  @IsIn(RECOVERABLE_STATUSES, { each: true })
  status?: RecoverableStatus[];
}
