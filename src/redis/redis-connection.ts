import { Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { Redis, type RedisOptions } from 'ioredis';
import { AppConfig } from '../config/environment.js';
import { GuardedRedis } from './guarded-redis.js';

/** Receives a channel's messages; `resync` runs when messages may have been missed (the subscription was down). */
export interface ChannelListener {
  message(payload: string): void;
  resync(): void;
}

/** How long start-up waits for a subscription before it goes on without one (Redis down: fail open). */
const SUBSCRIBE_WAIT_MS = 2_000;

/**
 * Commands fail at once while Redis is unreachable (no offline queue, a short timeout, and a circuit breaker for a
 * server that holds the connection but answers nothing: see GuardedRedis), so callers fall back to their local state
 * instead of holding requests; the connection keeps retrying in the background. A healthy Redis answers far within
 * the timeout: a command that takes it all marks Redis as failing.
 */
const COMMAND_OPTIONS: RedisOptions = {
  enableOfflineQueue: false,
  maxRetriesPerRequest: 1,
  connectTimeout: 2_000,
  retryStrategy: (attempt) => Math.min(attempt * 200, 2_000),
};

/**
 * The connection to the Redis server every instance shares (REDIS_URL), when there is one. Its users must work
 * without it: `client` is undefined when none is configured, and commands fail fast while it is unreachable.
 * Losing and regaining the server is logged once each way.
 */
@Injectable()
export class RedisConnection implements OnApplicationShutdown {
  private readonly logger = new Logger(RedisConnection.name);
  /** For commands; undefined without REDIS_URL. */
  readonly client?: Redis;
  private subscriber?: Redis;
  private readonly listeners = new Map<string, ChannelListener>();
  private readonly keyPrefix: string;

  constructor(config: AppConfig) {
    this.keyPrefix = config.redis?.keyPrefix ?? '';
    if (!config.redis) return;
    const options = { ...COMMAND_OPTIONS, commandTimeout: config.redis.commandTimeoutMs };
    const client = new GuardedRedis(config.redis.url, options, {
      opened: (error) =>
        this.logger.warn(
          { err: error },
          'Redis does not answer; falling back to per-instance state until it answers again',
        ),
      closed: () => this.logger.log('Redis answers again'),
    });
    this.client = this.connect(client, 'commands');
  }

  /** The name of a key or channel with this service's prefix. */
  key(name: string): string {
    return `${this.keyPrefix}:${name}`;
  }

  /**
   * Delivers the messages of `channel` to `listener`, on every instance that subscribed. Waits (briefly) for the
   * subscription so that a started instance does not miss messages; without a server it returns at once.
   */
  async subscribe(channel: string, listener: ChannelListener): Promise<void> {
    if (!this.client) return;
    const name = this.key(channel);
    this.listeners.set(name, listener);
    this.subscriber ??= this.openSubscriber(this.client);
    let timer: NodeJS.Timeout | undefined;
    const gaveUp = new Promise<void>((resolve) => (timer = setTimeout(resolve, SUBSCRIBE_WAIT_MS)));
    const subscribed = this.subscriber.subscribe(name).then(
      () => undefined,
      (error: unknown) => this.logger.warn({ err: error, channel: name }, 'Subscribing to a Redis channel failed'),
    );
    await Promise.race([subscribed, gaveUp]).finally(() => clearTimeout(timer));
  }

  /** Sends `payload` to every subscriber of `channel`; without a reachable server it is dropped (and logged). */
  publish(channel: string, payload: string): void {
    this.client?.publish(this.key(channel), payload).catch((error: unknown) => {
      this.logger.warn(
        { err: error, channel },
        'Publishing to Redis failed; other instances rely on their cache expiry',
      );
    });
  }

  async onApplicationShutdown(): Promise<void> {
    // QUIT waits for the server; without one (it went away) there is nothing to say goodbye to.
    const close = async (connection?: Redis) => {
      if (connection?.status === 'ready') await connection.quit().catch(() => connection.disconnect());
      else connection?.disconnect();
    };
    await Promise.all([close(this.client), close(this.subscriber)]);
  }

  private openSubscriber(client: Redis): Redis {
    // Subscriptions are queued until connected and renewed after every reconnection (ioredis' autoResubscribe).
    const subscriber = this.connect(
      client.duplicate({ enableOfflineQueue: true, commandTimeout: undefined }),
      'pub/sub',
    );
    let connectedBefore = false;
    subscriber.on('ready', () => {
      // Messages sent while the subscription was down are lost: listeners drop what they may have missed.
      if (connectedBefore) for (const listener of this.listeners.values()) listener.resync();
      connectedBefore = true;
    });
    subscriber.on('message', (channel: string, payload: string) => this.listeners.get(channel)?.message(payload));
    return subscriber;
  }

  private connect(connection: Redis, role: string): Redis {
    let down = false;
    connection.on('error', (error: Error) => {
      if (down) return;
      down = true;
      this.logger.warn(
        { err: error, role },
        'Redis is unreachable; falling back to per-instance state until it is back',
      );
    });
    connection.on('ready', () => {
      if (!down) return;
      down = false;
      this.logger.log({ role }, 'Redis is reachable again');
    });
    return connection;
  }
}
