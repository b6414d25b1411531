/** The module that serves entities with file fields, and the types this service gives it. */
export { CatalogModule } from './catalog.module.js';
export { CATALOG } from './catalog.js';
