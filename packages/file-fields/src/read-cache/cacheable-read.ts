import { applyDecorators, SetMetadata, UseInterceptors } from '@nestjs/common';
import { ReadCacheInterceptor } from './read-cache.interceptor.js';

/** The metadata key that `@CacheableRead()` sets on a handler. */
const CACHEABLE_READ = 'read-cache:cacheable-read';

/**
 * Marks a GET handler whose answer depends on its URL (path and query string), the caller's permissions and the
 * database alone: not on the time, headers or anything kept in memory. Its answer, written as JSON, is kept (see
 * ReadCache) and sent again for the same URL and permissions for as long as the database shows the same data.
 * Guards, middleware and logging still run for every request; the handler, its pipes and what post-processes its
 * answer (file-field resolution) do not. Binds {@link ReadCacheInterceptor} to the handler: the application provides
 * a ReadCache (FileFieldsModule does).
 */
export const CacheableRead = (): MethodDecorator =>
  applyDecorators(SetMetadata(CACHEABLE_READ, true), UseInterceptors(ReadCacheInterceptor));
