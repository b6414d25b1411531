import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';
import { IsOmittable } from '../common/dto/is-omittable.js';
import type { ListSpec } from '../database/list-page.js';
import type { Article } from './article.entity.js';
import type { Product } from './product.entity.js';

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

/** Products are looked for by name and ordered by name or time (ties by id). */
export const PRODUCT_LIST: ListSpec<Product> = {
  search: ['name'],
  sorts: { id: 'id', name: 'name', created_at: 'created_at' },
  defaultSort: 'id',
};

/** Articles are looked for by title and ordered by title or time (ties by id). */
export const ARTICLE_LIST: ListSpec<Article> = {
  search: ['title'],
  sorts: { id: 'id', title: 'title', created_at: 'created_at' },
  defaultSort: 'id',
};
