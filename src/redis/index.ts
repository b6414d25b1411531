/**
 * The RedisModule's public surface: everything another module uses comes from here (specs: `testing.ts`).
 */
export { RedisModule } from './redis.module.js';
export { RedisConnection } from './redis-connection.js';
