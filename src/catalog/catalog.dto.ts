import type { Type } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';
import { IsOmittable } from '../common/dto/is-omittable.js';

@ApiSchema({ name: 'CreateProduct' })
export class CreateProductDto {
  @ApiProperty({ title: 'Name', description: 'What the product is called', maxLength: 200, example: 'Desk lamp' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  name!: string;

  @ApiPropertyOptional({
    title: 'Description',
    description: 'What a customer reads about the product',
    type: String,
    maxLength: 10000,
    nullable: true,
  })
  @IsOptional()
  @IsString()
  @MaxLength(10000)
  description?: string | null;
}

@ApiSchema({ name: 'UpdateProduct' })
export class UpdateProductDto {
  @ApiPropertyOptional({ title: 'Name', description: 'What the product is called', maxLength: 200 })
  @IsOmittable()
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  name?: string;

  @ApiPropertyOptional({
    title: 'Description',
    description: 'What a customer reads about the product',
    type: String,
    maxLength: 10000,
    nullable: true,
  })
  @IsOptional()
  @IsString()
  @MaxLength(10000)
  description?: string | null;
}

@ApiSchema({ name: 'CreateArticle' })
export class CreateArticleDto {
  @ApiProperty({ title: 'Title', description: 'The headline of the article', maxLength: 300, example: 'Release notes' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(300)
  title!: string;
}

@ApiSchema({ name: 'UpdateArticle' })
export class UpdateArticleDto {
  @ApiPropertyOptional({ title: 'Title', description: 'The headline of the article', maxLength: 300 })
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

/** The OpenAPI schema of a page of `entity`, named e.g. `ProductPage`. */
export function pageSchemaOf(entity: Type<unknown>): Type<Page<unknown>> {
  @ApiSchema({ name: `${entity.name}Page`, description: `A page of ${entity.name} entities, files resolved` })
  class PageSchema implements Page<unknown> {
    @ApiProperty({ type: entity, isArray: true }) items!: unknown[];
    @ApiProperty({ type: 'integer', description: 'How many there are in all', example: 1 }) total!: number;
    @ApiProperty({ type: 'integer', example: 20 }) limit!: number;
    @ApiProperty({ type: 'integer', example: 0 }) offset!: number;
  }
  return PageSchema;
}
