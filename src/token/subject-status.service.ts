import { Injectable } from '@nestjs/common';
import { InjectEntityManager } from '@nestjs/typeorm';
import type { EntityManager } from 'typeorm';
import { Clock } from '../common/clock.js';
import { AppConfig } from '../config/environment.js';
import { Integration } from './entities/integration.entity.js';
import { User } from './entities/user.entity.js';

/** Whose token it is: `integration:<id>` or `user:<id>`. */
export type Subject = { kind: 'integration' | 'user'; id: number };

export function subjectOf(kind: Subject['kind'], id: number): string {
  return `${kind}:${id}`;
}

export function parseSubject(sub: string): Subject | undefined {
  const match = /^(integration|user):([1-9]\d{0,9})$/.exec(sub);
  return match ? { kind: match[1] as Subject['kind'], id: Number(match[2]) } : undefined;
}

interface Cached {
  /** The version a token must carry (0 for integrations); undefined: no token is good (gone or disabled). */
  version?: number;
  until: number;
}

/**
 * Answers "may this subject's token still be used?" on every request, from a small cache that is at most
 * REVOCATION_CACHE_SECONDS stale (and cleared at once on this instance when it changes the subject).
 */
@Injectable()
export class SubjectStatusService {
  private readonly cache = new Map<string, Cached>();

  constructor(
    @InjectEntityManager() private readonly manager: EntityManager,
    private readonly config: AppConfig,
    private readonly clock: Clock,
  ) {}

  /** Whether a token of `sub` issued under `version` (user tokens; 0 otherwise) is still good. */
  async accepts(sub: string, version: number): Promise<boolean> {
    const now = this.clock.nowMs();
    let entry = this.cache.get(sub);
    if (!entry || entry.until <= now) {
      entry = { version: await this.lookup(sub), until: now + this.config.oauth.revocationCacheMs };
      if (this.cache.size > 10_000) this.cache.clear();
      this.cache.set(sub, entry);
    }
    return entry.version !== undefined && entry.version === version;
  }

  invalidate(sub: string): void {
    this.cache.delete(sub);
  }

  private async lookup(sub: string): Promise<number | undefined> {
    const subject = parseSubject(sub);
    if (subject?.kind === 'integration') {
      const integration = await this.manager.findOneBy(Integration, { id: subject.id });
      return integration?.active ? 0 : undefined;
    }
    if (subject?.kind === 'user') {
      const user = await this.manager.findOneBy(User, { id: subject.id });
      return user?.tokenVersion;
    }
    return undefined;
  }
}
