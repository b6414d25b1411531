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
  IsString,
  Matches,
  MaxLength,
  ValidateNested,
} from 'class-validator';
import { IsOmittable } from '../../common/dto/is-omittable.js';
import { FILE_EVENT_KINDS } from '@file-fields/nest';
import { ENDPOINT_DISABLED_EVENT } from '../delivery/webhook-endpoint-disabled.js';
import { ATTACHMENT_TYPE_NAME } from './webhook-endpoint-filter.js';
import { ALL_EVENTS } from '../events/webhook-event-catalog.js';
import { SIGNATURE_SCHEMES, type SignatureScheme } from '../sending/webhook-signer.js';

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
