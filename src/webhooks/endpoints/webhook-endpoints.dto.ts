import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  ArrayUnique,
  IsArray,
  IsBoolean,
  IsIn,
  IsObject,
  IsOptional,
  IsRFC3339,
  IsString,
  Matches,
  MaxLength,
  ValidateBy,
  ValidateNested,
  type ValidationArguments,
} from 'class-validator';
import { IsOmittable } from '../common/dto/is-omittable.js';
import { ListQueryDto } from '../common/dto/list-query.dto.js';
import { FILE_EVENT_KINDS } from '../files/index.js';
import { DELIVERY_STATUSES, type DeliveryStatus } from './entities/webhook-delivery.entity.js';
import { ENDPOINT_DISABLED_EVENT } from './webhook-endpoint-disabled.js';
import { ATTACHMENT_TYPE_NAME } from './webhook-endpoint-filter.js';
import { ALL_EVENTS } from './webhook-event-catalog.js';
import { SIGNATURE_SCHEMES, type SignatureScheme } from './webhook-signer.js';
import { RECOVERABLE_STATUSES, RECOVERY_LIMIT, type RecoverableStatus } from './webhook-recovery.service.js';

// The document is built from decorators, before any publisher registers its kinds, so it names the kinds this
// service's publishers emit; what is accepted is checked against WebhookEventCatalog (WebhookEndpointsService).
const DOCUMENTED_KINDS = [...FILE_EVENT_KINDS, ENDPOINT_DISABLED_EVENT, ALL_EVENTS];

/** `filter` of an endpoint: which events of its kinds it receives. */
@ApiSchema({ name: 'WebhookFilter' })
export class WebhookFilterDto {
  @ApiProperty({
    example: ['product'],
    description:
      'Only events about these attachment types (the `attachment_type` of `data.file`, or of `data` for ' +
      'file.reordered); events about none, such as webhook.ping and webhook.endpoint.disabled, always pass',
  })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(100)
  @ArrayUnique()
  @Matches(ATTACHMENT_TYPE_NAME, { each: true, message: 'each value in $property must be an attachment type name' })
  attachment_types!: string[];
}

/** The `filter` property of a registration or a change: an object validated as a WebhookFilterDto. */
const FilterProperty = () =>
  applyDecorators(
    IsObject(),
    ValidateNested(),
    Type(() => WebhookFilterDto),
  );

/** The OpenAPI description of `signature_scheme`, one named enum wherever it appears. */
export const SIGNATURE_SCHEME_PROPERTY = {
  enum: SIGNATURE_SCHEMES,
  enumName: 'WebhookSignatureScheme',
  description:
    "`github`: `X-Signature: sha256=<hex>` over the body (GitHub's format), secret `ffwh_…`. `standard`: Standard " +
    'Webhooks v1 (`webhook-id`, `webhook-timestamp`, `webhook-signature: v1,<base64>`), secret `whsec_<base64>`',
} as const;

@ApiSchema({ name: 'CreateWebhook' })
export class CreateWebhookDto {
  @ApiProperty({ example: 'https://example.org/hooks/files' })
  @IsString()
  @MaxLength(2048)
  url!: string;

  @ApiPropertyOptional({ ...SIGNATURE_SCHEME_PROPERTY, default: 'github' })
  @IsOptional()
  @IsIn(SIGNATURE_SCHEMES)
  signature_scheme?: SignatureScheme;

  @ApiProperty({ example: ['file.created', 'file.deleted'], description: `Any of ${DOCUMENTED_KINDS.join(', ')}` })
  @IsArray()
  @ArrayMinSize(1)
  @IsString({ each: true })
  events!: string[];

  @ApiPropertyOptional({ type: WebhookFilterDto, description: 'Absent: every event of those kinds' })
  @IsOptional()
  @FilterProperty()
  filter?: WebhookFilterDto;

  @ApiPropertyOptional()
  @IsOptional()
  @IsString()
  @MaxLength(500)
  description?: string;
}

@ApiSchema({ name: 'UpdateWebhook' })
export class UpdateWebhookDto {
  @ApiPropertyOptional()
  @IsOmittable()
  @IsString()
  @MaxLength(2048)
  url?: string;

  @ApiPropertyOptional({
    ...SIGNATURE_SCHEME_PROPERTY,
    description:
      'Only the current scheme is accepted (409 otherwise): the scheme changes with a rotation of the secret',
  })
  @IsOmittable()
  @IsIn(SIGNATURE_SCHEMES)
  signature_scheme?: SignatureScheme;

  @ApiPropertyOptional({ type: [String] })
  @IsOmittable()
  @IsArray()
  @ArrayMinSize(1)
  @IsString({ each: true })
  events?: string[];

  @ApiPropertyOptional({ type: WebhookFilterDto, nullable: true, description: 'null removes the filter' })
  @IsOptional()
  @FilterProperty()
  filter?: WebhookFilterDto | null;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 500 })
  @IsOptional()
  @IsString()
  @MaxLength(500)
  description?: string | null;

  @ApiPropertyOptional({ description: 'true re-enables a disabled endpoint' })
  @IsOmittable()
  @IsBoolean()
  active?: boolean;
}

@ApiSchema({ name: 'RotateWebhookSecret' })
export class RotateWebhookSecretDto {
  @ApiPropertyOptional({
    ...SIGNATURE_SCHEME_PROPERTY,
    description:
      "The scheme of the new secret (the endpoint's own by default); during WEBHOOK_SECRET_GRACE the old secret " +
      'still signs in the old scheme, next to the new one',
  })
  @IsOptional()
  @IsIn(SIGNATURE_SCHEMES)
  signature_scheme?: SignatureScheme;
}

@ApiSchema({ name: 'DeliveriesQuery' })
export class DeliveriesQueryDto extends ListQueryDto {
  @ApiPropertyOptional({ enum: DELIVERY_STATUSES })
  @IsOptional()
  @IsIn(DELIVERY_STATUSES)
  status?: DeliveryStatus;
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
  @IsOptional()
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
