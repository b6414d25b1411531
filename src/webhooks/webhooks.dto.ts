import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMinSize, IsArray, IsBoolean, IsIn, IsOptional, IsString, MaxLength, ValidateIf } from 'class-validator';
import { ListQueryDto } from '../common/dto/list-query.dto.js';
import { FILE_EVENT_KINDS } from '../files/index.js';
import { ALL_EVENTS } from './webhook-event-catalog.js';

// The document is built from decorators, before any publisher registers its kinds, so it names the kinds this
// service's publishers emit; what is accepted is checked against WebhookEventCatalog (WebhookEndpointsService).
const DOCUMENTED_KINDS = [...FILE_EVENT_KINDS, ALL_EVENTS];
const omittable = () => ValidateIf((_object, value) => value !== undefined);

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
  @omittable()
  @IsString()
  @MaxLength(2048)
  url?: string;

  @ApiPropertyOptional({ type: [String] })
  @omittable()
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
  @omittable()
  @IsBoolean()
  active?: boolean;
}

export class DeliveriesQueryDto extends ListQueryDto {
  @ApiPropertyOptional({ enum: ['pending', 'succeeded', 'failed', 'skipped'] })
  @IsOptional()
  @IsIn(['pending', 'succeeded', 'failed', 'skipped'])
  status?: 'pending' | 'succeeded' | 'failed' | 'skipped';
}
