import { Article } from './article.entity.js';
import {
  ARTICLE_LIST,
  CreateArticleDto,
  CreateProductDto,
  PRODUCT_LIST,
  UpdateArticleDto,
  UpdateProductDto,
} from './catalog.dto.js';
import type { CatalogOptions } from './catalog.module.js';
import * as migrations from './migrations/index.js';
import { Product } from './product.entity.js';

/**
 * The types this service serves. A new one is its entity file and its line here (the class alone: its routes, request
 * bodies and list follow from its decorators, see docs/file-fields.md), then the migration that creates its table:
 * `npm run migration:generate -- src/catalog/migrations/Add<Types>`. Products and articles predate that and keep
 * their own request bodies and lists.
 */
export const CATALOG: CatalogOptions = {
  types: [
    { type: Product, createDto: CreateProductDto, updateDto: UpdateProductDto, list: PRODUCT_LIST },
    { type: Article, createDto: CreateArticleDto, updateDto: UpdateArticleDto, list: ARTICLE_LIST },
  ],
  migrations: Object.values(migrations),
};
