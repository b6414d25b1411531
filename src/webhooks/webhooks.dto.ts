import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMinSize, IsArray, IsBoolean, IsIn, IsOptional, IsString, MaxLength, ValidateIf } from 'class-validator';
import { ListQueryDto } from '../common/dto/list-query.dto.js';
import { EVENT_KINDS } from './webhook-events.service.js';

const SUBSCRIBABLE = [...EVENT_KINDS.filter((kind) => kind !== 'webhook.ping'), '*'];
const omittable = () => ValidateIf((_object, value) => value !== undefined);

export class CreateWebhookDto {
  @ApiProperty({ example: 'https://example.org/hooks/files' })
  @IsString()
  @MaxLength(2048)
  url!: string;

  @ApiProperty({ example: ['file.created', 'file.deleted'], description: `Any of ${SUBSCRIBABLE.join(', ')}` })
  @IsArray()
  @ArrayMinSize(1)
  @IsIn(SUBSCRIBABLE, { each: true })
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
  @IsIn(SUBSCRIBABLE, { each: true })
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
