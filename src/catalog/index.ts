/** The example entities with file fields, and the module that serves them. */
export { CatalogModule } from './catalog.module.js';
export { Article } from './article.entity.js';
export { Product } from './product.entity.js';
