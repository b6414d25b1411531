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
  IsInt,
  IsObject,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';
import { IsOmittable } from '../../common/dto/is-omittable.js';
import { FILE_EVENT_KINDS } from '@file-fields/nest';
import { ENDPOINT_DISABLED_EVENT, ENDPOINT_FAILING_EVENT } from '../delivery/webhook-endpoint-notices.js';
import { ATTACHMENT_TYPE_NAME } from './webhook-endpoint-filter.js';
import { ALL_EVENTS } from '../events/webhook-event-catalog.js';
import { SIGNATURE_SCHEMES, type SignatureScheme } from '../sending/webhook-signer.js';
import { ORDERINGS, PAYLOADS, type Ordering, type Payload } from '../entities/webhook-endpoint.entity.js';

// The document is built from decorators, before any publisher registers its kinds, so it names the kinds this
// service's publishers emit; what is accepted is checked against WebhookEventCatalog (WebhookEndpointsService).
const DOCUMENTED_KINDS = [...FILE_EVENT_KINDS, ENDPOINT_DISABLED_EVENT, ENDPOINT_FAILING_EVENT, ALL_EVENTS];

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
    'Webhooks v1 (`webhook-id`, `webhook-timestamp`, `webhook-signature: v1,<base64>`), secret `whsec_<base64>`. ' +
    '`standard-v1a`: Standard Webhooks v1a, Ed25519 (`webhook-signature: v1a,<base64>`, the key named in ' +
    '`webhook-key-id` and published at /.well-known/webhook-keys.json), no secret. `standard-v1-v1a`: both',
} as const;

/** The OpenAPI descriptions of the delivery modes, one named enum each wherever they appear. */
export const ORDERING_PROPERTY = {
  enum: ORDERINGS,
  enumName: 'WebhookOrdering',
  description:
    '`per-entity`: events about one item (a file’s item, or the endpoint for webhook.*) arrive in the order they ' +
    'were written; one that keeps failing holds back only its item’s later events, until its retries end. `none`: ' +
    'no order is kept, a retry does not hold anything back',
} as const;
export const PAYLOAD_PROPERTY = {
  enum: PAYLOADS,
  enumName: 'WebhookPayload',
  description:
    '`thin`: the event’s id, kind and time, and `object` (and `entity`) with the URL of each, no `data`: the ' +
    'receiver reads the current state with its own token. `full`: the event’s `data`',
} as const;
export const RATE_LIMIT_PROPERTY = {
  type: 'integer',
  minimum: 1,
  maximum: 10_000,
  nullable: true,
  description: 'Deliveries per second at most, from every instance together; null: no limit',
} as const;
export const AUTO_RECOVER_PROPERTY = {
  type: Boolean,
  description:
    'Once disabled for failing, probed every WEBHOOK_PROBE_INTERVAL and re-enabled when it answers 2xx, its ' +
    'missed events sent again (as Recover does)',
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

  @ApiPropertyOptional({ ...ORDERING_PROPERTY, default: 'none' })
  @IsOptional()
  @IsIn(ORDERINGS)
  ordering?: Ordering;

  @ApiPropertyOptional({ ...PAYLOAD_PROPERTY, default: 'full' })
  @IsOptional()
  @IsIn(PAYLOADS)
  payload?: Payload;

  @ApiPropertyOptional({ ...RATE_LIMIT_PROPERTY, default: null })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(10_000)
  rate_limit?: number | null;

  @ApiPropertyOptional({ ...AUTO_RECOVER_PROPERTY, default: false })
  @IsOptional()
  @IsBoolean()
  auto_recover?: boolean;
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

  @ApiPropertyOptional({
    ...ORDERING_PROPERTY,
    description: `${ORDERING_PROPERTY.description}. Applies to events written from then on`,
  })
  @IsOmittable()
  @IsIn(ORDERINGS)
  ordering?: Ordering;

  @ApiPropertyOptional(PAYLOAD_PROPERTY)
  @IsOmittable()
  @IsIn(PAYLOADS)
  payload?: Payload;

  @ApiPropertyOptional(RATE_LIMIT_PROPERTY)
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(10_000)
  rate_limit?: number | null;

  @ApiPropertyOptional(AUTO_RECOVER_PROPERTY)
  @IsOmittable()
  @IsBoolean()
  auto_recover?: boolean;
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
