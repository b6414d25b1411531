import { loadAppConfig } from '../config/environment.js';
import { RedisConnection } from './redis-connection.js';

/** For unit specs: the connection of a service without REDIS_URL (every state stays in memory). */
export function noRedis(): RedisConnection {
  return new RedisConnection(loadAppConfig({}));
}
