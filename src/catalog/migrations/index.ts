// The catalog's migrations, in the order they run (by the timestamp ending each name). `npm run migration:generate --
// src/catalog/migrations/<Name>` adds the one it writes here.
export { Catalog1763799999000 } from './1763799999000-catalog.js';
export { CatalogChangesCounted1763800011000 } from './1763800011000-catalog-changes-counted.js';
export { CatalogListIndexes1763800014000 } from './1763800014000-catalog-list-indexes.js';
