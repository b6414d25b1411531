/**
 * Answers kept while the data stays the same: `@CacheableRead()` marks a handler, ReadCache keeps its JSON answers by
 * handler, permission set and URL for one version of the data they are made from (DataVersion), which migrations
 * declare with countChangesOf.
 */
export {
  countChangesOf,
  stopCountingChangesOf,
  useSingleRowDataChanges,
  useStripedDataChanges,
} from './data-changes.js';
export {
  CACHEABLE_READ,
  CacheableRead,
  ReadCache,
  readKey,
  type ReadCacheStats,
  type ReadStart,
} from './read-cache.js';
