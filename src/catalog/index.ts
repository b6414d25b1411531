/** The module that serves the example entities with file fields. */
export { CatalogModule } from './catalog.module.js';
