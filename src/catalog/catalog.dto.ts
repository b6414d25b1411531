import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsNotEmpty, IsOptional, IsString, Max, MaxLength, Min, ValidateIf } from 'class-validator';

/** May be left out, but when present must pass the other rules (null included: a required column stays set). */
const IsOmittable = () => ValidateIf((_object, value) => value !== undefined);

export class CreateProductDto {
  @ApiProperty({ maxLength: 200, example: 'Desk lamp' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  name!: string;

  @ApiPropertyOptional({ maxLength: 10000, nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(10000)
  description?: string | null;
}

export class UpdateProductDto {
  @ApiPropertyOptional({ maxLength: 200 })
  @IsOmittable()
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  name?: string;

  @ApiPropertyOptional({ maxLength: 10000, nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(10000)
  description?: string | null;
}

export class CreateArticleDto {
  @ApiProperty({ maxLength: 300, example: 'Release notes' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(300)
  title!: string;
}

export class UpdateArticleDto {
  @ApiPropertyOptional({ maxLength: 300 })
  @IsOmittable()
  @IsString()
  @IsNotEmpty()
  @MaxLength(300)
  title?: string;
}

export class ListQueryDto {
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

/** A page of a collection. */
export interface Page<T> {
  items: T[];
  total: number;
  limit: number;
  offset: number;
}
