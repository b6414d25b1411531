/**
 * Answers kept while the data stays the same: `@CacheableRead()` marks a handler and binds ReadCacheInterceptor to it;
 * ReadCache keeps its JSON answers by handler, permission set and URL for one version of the data they are made from
 * (DataVersion), which migrations declare with countChangesOf.
 */
export { CacheableRead } from './cacheable-read.js';
export {
  countChangesOf,
  stopCountingChangesOf,
  useSingleRowDataChanges,
  useStripedDataChanges,
} from './data-changes.js';
export { asJsonAnswer, jsonText } from './json-text.js';
export { keepNotTheAnswerTo, ReadCacheInterceptor } from './read-cache.interceptor.js';
export { ReadCache, type ReadStart } from './read-cache.js';
