import { Global, Module } from '@nestjs/common';
import { RedisConnection } from './redis-connection.js';

/** The shared Redis connection (REDIS_URL), for every feature that keeps state across instances. */
@Global()
@Module({ providers: [RedisConnection], exports: [RedisConnection] })
export class RedisModule {}
