/**
 * The RedisModule's public surface: everything another module uses comes from here (specs: `testing.ts`).
 */
export { RedisModule } from './redis.module.js';
export { RedisConnection, type ChannelListener } from './redis-connection.js';
