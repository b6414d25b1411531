import { FilesAndCatalog1763800000000 } from './1763800000000-files-and-catalog.js';

/** Every migration, in order. The service runs them at start; the TypeORM CLI uses the same list. */
export const migrations = [FilesAndCatalog1763800000000];
