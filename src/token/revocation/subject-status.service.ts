import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { BoundedCache } from '../../common/bounded-cache.js';
import { Clock } from '@file-fields/nest';
import { RedisConnection } from '../../redis/index.js';
import { integrationExpired } from '../repositories/entities/integration.entity.js';
import { parseSubject } from '../credentials/subjects.js';
import { tokenConfig, type TokenConfig } from '../token.config.js';
import { IntegrationsRepository } from '../repositories/integrations.repository.js';
import { RefreshTokensRepository } from '../repositories/refresh-tokens.repository.js';
import { UsersRepository } from '../repositories/users.repository.js';

/**
 * For a subject: the version its tokens must carry, undefined when no token is good (gone, disabled or expired); for
 * a sign-in: whether it was revoked.
 */
type Cached = number | boolean | undefined;

/** What a token must match to stay good: its subject, the version it was issued under, its sign-in (users). */
export interface TokenBinding {
  sub: string;
  ver: number;
  /** The refresh-token family (sign-in) a user's access token belongs to; revoking the family ends the token. */
  sid?: string;
  /** The client the token was issued to (`client_id`): deleting it revokes its sign-ins. */
  clientId?: string;
}

/** A cached state; a sign-in's names its client, so that deleting the client forgets it. */
interface Entry {
  value: Cached;
  clientId?: string;
}

const CACHE_LIMIT = 10_000;
/** The broadcast key of a client whose sign-ins were all revoked: `client:<client_id>`. */
const CLIENT_KEY_PREFIX = 'client:';

/** The Redis channel on which instances tell each other which cached states to drop (a cache key, or `*`). */
const REVOCATIONS_CHANNEL = 'revocations';
export const EVERYTHING = '*';

/**
 * Answers "may this token still be used?" on every request, from a small cache that is at most
 * REVOCATION_CACHE_SECONDS stale. A change to a subject clears its entry at once on this instance and, through Redis
 * when REDIS_URL is set, on every other instance; should Redis be unreachable, the cache expiry still bounds the delay.
 */
@Injectable()
export class SubjectStatusService implements OnModuleInit {
  private readonly cache = new BoundedCache<Entry>(CACHE_LIMIT);
  private readonly forgetListeners: Array<(key: string) => void> = [];

  constructor(
    private readonly integrations: IntegrationsRepository,
    private readonly users: UsersRepository,
    private readonly refreshTokens: RefreshTokensRepository,
    @Inject(tokenConfig.KEY) private readonly config: TokenConfig,
    private readonly clock: Clock,
    private readonly redis: RedisConnection,
  ) {}

  async onModuleInit(): Promise<void> {
    await this.redis.subscribe(REVOCATIONS_CHANNEL, {
      message: (key) => this.forget(key),
      // Revocations may have been missed while the subscription was down.
      resync: () => this.forget(EVERYTHING),
    });
  }

  /** Whether the token's subject still exists and is active, its version is current, and its sign-in stands. */
  async accepts(token: TokenBinding): Promise<boolean> {
    const version = await this.cached(token.sub, () => this.versionOf(token.sub));
    if (version === undefined || version !== token.ver) return false;
    if (token.sid === undefined) return true;
    const sid = token.sid;
    return !(await this.cached(`sid:${sid}`, () => this.familyRevoked(sid), token.clientId));
  }

  /**
   * Calls `listener` with every key this instance forgets (a subject, `sid:<family>`, `client:<client_id>`, or
   * {@link EVERYTHING}), whether
   * the change was made here or on another instance: other caches of subject state stay as fresh as this one.
   */
  onForget(listener: (key: string) => void): void {
    this.forgetListeners.push(listener);
  }

  /** Forgets the state of a subject (`integration:<id>`, `user:<id>`) on every instance. */
  invalidate(subject: string): void {
    this.broadcast(subject);
  }

  /** Forgets a revoked sign-in on every instance. */
  invalidateSignIn(familyId: string): void {
    this.broadcast(`sid:${familyId}`);
  }

  /**
   * Forgets, on every instance, the state of every sign-in made at a client whose sign-ins were all just revoked (it
   * was deleted): one message, however many sign-ins it had.
   */
  invalidateClient(clientId: string): void {
    this.broadcast(`${CLIENT_KEY_PREFIX}${clientId}`);
  }

  /** Forgets every subject's state on every instance (e.g. a role was narrowed). */
  invalidateAll(): void {
    this.broadcast(EVERYTHING);
  }

  private broadcast(key: string): void {
    this.forget(key);
    this.redis.publish(REVOCATIONS_CHANNEL, key);
  }

  private forget(key: string): void {
    if (key === EVERYTHING) this.cache.clear();
    else if (key.startsWith(CLIENT_KEY_PREFIX)) {
      const clientId = key.slice(CLIENT_KEY_PREFIX.length);
      this.cache.deleteWhere((entry) => entry.clientId === clientId);
    } else this.cache.delete(key);
    for (const listener of this.forgetListeners) listener(key);
  }

  private async cached<T extends Cached>(key: string, load: () => Promise<T>, clientId?: string): Promise<T> {
    const now = this.clock.nowMs();
    const hit = this.cache.get(key, now);
    if (hit) return hit.value as T;
    const value = await load();
    this.cache.set(key, { value, clientId }, now + this.config.revocationCacheMs);
    return value;
  }

  private async versionOf(sub: string): Promise<number | undefined> {
    const subject = parseSubject(sub);
    if (subject?.kind === 'integration') {
      const integration = await this.integrations.findById(subject.id);
      const usable = integration?.active && !integrationExpired(integration, this.clock.nowMs());
      return usable ? integration.tokenVersion : undefined;
    }
    if (subject?.kind === 'user') {
      const user = await this.users.findById(subject.id);
      return user?.tokenVersion;
    }
    return undefined;
  }

  private familyRevoked(familyId: string): Promise<boolean> {
    return this.refreshTokens.familyRevoked(familyId);
  }
}
