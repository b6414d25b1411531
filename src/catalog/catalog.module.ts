import { Module } from '@nestjs/common';
import { getRepositoryToken } from '@nestjs/typeorm';
import type { Repository } from 'typeorm';
import { AuditModule } from '../audit/index.js';
import { DatabaseModule } from '../database/database.module.js';
import { UnitOfWork } from '../database/unit-of-work.js';
import { Article } from './article.entity.js';
import type { ListSpec } from '../database/list-page.js';
import {
  ARTICLE_LIST,
  CreateArticleDto,
  CreateProductDto,
  PRODUCT_LIST,
  UpdateArticleDto,
  UpdateProductDto,
} from './catalog.dto.js';
import { createCatalogController } from './catalog.controller.js';
import { CatalogService, type CatalogEntity } from './catalog.service.js';
import { Catalog1763799999000 } from './migrations/1763799999000-catalog.js';
import { CatalogChangesCounted1763800011000 } from './migrations/1763800011000-catalog-changes-counted.js';
import { CatalogListIndexes1763800014000 } from './migrations/1763800014000-catalog-list-indexes.js';
import { Product } from './product.entity.js';

const PRODUCTS = Symbol('ProductsService');
const ARTICLES = Symbol('ArticlesService');

const serviceFor = (token: symbol, entity: Function, label: string, list: ListSpec<never>) => ({
  provide: token,
  inject: [getRepositoryToken(entity), UnitOfWork],
  useFactory: (repository: Repository<CatalogEntity>, unitOfWork: UnitOfWork) =>
    new CatalogService(repository, unitOfWork, label, list as ListSpec<CatalogEntity>),
});

/** The example entities that declare file fields: products and articles. */
@Module({
  imports: [
    DatabaseModule.forFeature({
      entities: [Product, Article],
      migrations: [Catalog1763799999000, CatalogChangesCounted1763800011000, CatalogListIndexes1763800014000],
    }),
    // Creating, changing and deleting content is recorded in the audit trail (@Audited()).
    AuditModule,
  ],
  controllers: [
    createCatalogController({
      path: 'products',
      label: 'product',
      service: PRODUCTS,
      entity: Product,
      createDto: CreateProductDto,
      updateDto: UpdateProductDto,
      list: PRODUCT_LIST,
      searchedIn: 'name',
    }),
    createCatalogController({
      path: 'articles',
      label: 'article',
      service: ARTICLES,
      entity: Article,
      createDto: CreateArticleDto,
      updateDto: UpdateArticleDto,
      list: ARTICLE_LIST,
      searchedIn: 'title',
    }),
  ],
  providers: [
    serviceFor(PRODUCTS, Product, 'product', PRODUCT_LIST),
    serviceFor(ARTICLES, Article, 'article', ARTICLE_LIST),
  ],
})
export class CatalogModule {}
