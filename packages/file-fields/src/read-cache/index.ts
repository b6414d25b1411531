/**
 * Answers kept while the data stays the same, as the package's own modules use them (an application imports
 * `CacheableRead` and the rest from the package's index): `@CacheableRead()` marks a handler and binds ReadCacheInterceptor to it;
 * ReadCache keeps its JSON answers by handler, permission set and URL for one version of the data they are made from
 * (DataVersion), which migrations declare with countChangesOf.
 */
export {
  countChangesOf,
  stopCountingChangesOf,
  useSingleRowDataChanges,
  useStripedDataChanges,
} from './data-changes.js';
export { asJsonAnswer, jsonText } from './json-text.js';
export { keepNotTheAnswerTo, ReadCacheInterceptor } from './read-cache.interceptor.js';
export { ReadCache, type ReadStart } from './read-cache.js';
