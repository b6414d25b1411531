import { Article } from './article.entity.js';
import type { ListSpec } from '@file-fields/nest';
import type { CatalogOptions } from './catalog.module.js';
import * as migrations from './migrations/index.js';
import { Product } from './product.entity.js';

/** Products are looked for by name only (not their description) and ordered by name or time (ties by id). */
const PRODUCT_LIST: ListSpec<Product> = {
  search: ['name'],
  sorts: { id: 'id', name: 'name', created_at: 'created_at' },
  defaultSort: 'id',
};

/**
 * The types this service serves. A new one is its entity file and its line here (the class alone: its routes, request
 * bodies and list follow from its decorators, see docs/file-fields.md), then the migration that creates its table:
 * `npm run migration:generate -- src/catalog/migrations/Add<Types>`.
 */
export const CATALOG: CatalogOptions = {
  types: [{ type: Product, list: PRODUCT_LIST }, Article],
  migrations: Object.values(migrations),
};
