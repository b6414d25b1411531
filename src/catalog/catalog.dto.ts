import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';
import { IsOmittable } from '../common/dto/is-omittable.js';

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

/** A page of a collection. */
export interface Page<T> {
  items: T[];
  total: number;
  limit: number;
  offset: number;
}
