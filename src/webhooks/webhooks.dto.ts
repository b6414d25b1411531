import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMinSize, IsArray, IsBoolean, IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import { IsOmittable } from '../common/dto/is-omittable.js';
import { ListQueryDto } from '../common/dto/list-query.dto.js';
import { FILE_EVENT_KINDS } from '../files/index.js';
import { DELIVERY_STATUSES, type DeliveryStatus } from './entities/webhook-delivery.entity.js';
import { ALL_EVENTS } from './webhook-event-catalog.js';

// The document is built from decorators, before any publisher registers its kinds, so it names the kinds this
// service's publishers emit; what is accepted is checked against WebhookEventCatalog (WebhookEndpointsService).
const DOCUMENTED_KINDS = [...FILE_EVENT_KINDS, ALL_EVENTS];

export class CreateWebhookDto {
  @ApiProperty({ example: 'https://example.org/hooks/files' })
  @IsString()
  @MaxLength(2048)
  url!: string;

  @ApiProperty({ example: ['file.created', 'file.deleted'], description: `Any of ${DOCUMENTED_KINDS.join(', ')}` })
  @IsArray()
  @ArrayMinSize(1)
  @IsString({ each: true })
  events!: string[];

  @ApiPropertyOptional()
  @IsOptional()
  @IsString()
  @MaxLength(500)
  description?: string;
}

export class UpdateWebhookDto {
  @ApiPropertyOptional()
  @IsOmittable()
  @IsString()
  @MaxLength(2048)
  url?: string;

  @ApiPropertyOptional({ type: [String] })
  @IsOmittable()
  @IsArray()
  @ArrayMinSize(1)
  @IsString({ each: true })
  events?: string[];

  @ApiPropertyOptional({ nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(500)
  description?: string | null;

  @ApiPropertyOptional({ description: 'true re-enables a disabled endpoint' })
  @IsOmittable()
  @IsBoolean()
  active?: boolean;
}

export class DeliveriesQueryDto extends ListQueryDto {
  @ApiPropertyOptional({ enum: DELIVERY_STATUSES })
  @IsOptional()
  @IsIn(DELIVERY_STATUSES)
  status?: DeliveryStatus;
}
