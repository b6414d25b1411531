import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
  ValidateIf,
} from 'class-validator';
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

export class DeliveriesQueryDto {
  @ApiPropertyOptional({ enum: ['pending', 'succeeded', 'failed', 'skipped'] })
  @IsOptional()
  @IsIn(['pending', 'succeeded', 'failed', 'skipped'])
  status?: 'pending' | 'succeeded' | 'failed' | 'skipped';

  @ApiPropertyOptional({ minimum: 1, maximum: 100, default: 20 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(100)
  limit = 20;

  @ApiPropertyOptional({ minimum: 0, default: 0 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  offset = 0;
}
