import { Injectable } from '@nestjs/common';
import { InjectEntityManager } from '@nestjs/typeorm';
import type { EntityManager } from 'typeorm';
import { OAuthGrant } from './entities/oauth-grant.entity.js';

/** People's remembered consents to registered clients; methods given a manager run in its transaction. */
@Injectable()
export class OAuthGrantsRepository {
  constructor(@InjectEntityManager() private readonly db: EntityManager) {}

  find(userId: number, clientId: string, manager: EntityManager = this.db): Promise<OAuthGrant | null> {
    return manager.findOneBy(OAuthGrant, { userId, clientId });
  }

  /** A page of the user's grants (to `clientId` only, if given), the latest consent first. */
  async pageOfUser(
    userId: number,
    limit: number,
    offset: number,
    clientId?: string,
  ): Promise<{ items: OAuthGrant[]; total: number }> {
    const [items, total] = await this.db.findAndCount(OAuthGrant, {
      where: { userId, ...(clientId !== undefined ? { clientId } : {}) },
      order: { grantedAt: 'DESC', id: 'DESC' },
      take: limit,
      skip: offset,
    });
    return { items, total };
  }

  /**
   * Records that the user allowed `scopes` to the client, on top of what they allowed before. Two consents at once
   * (two tabs) may race to insert: the loser finds the winner's row and widens it.
   */
  async remember(userId: number, clientId: string, scopes: readonly string[], now: number): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      const found = await this.find(userId, clientId);
      if (found) {
        const widened = [...new Set([...found.scopes, ...scopes])];
        await this.db.update(OAuthGrant, { id: found.id }, { scopes: widened, grantedAt: now });
        return;
      }
      try {
        await this.db.insert(OAuthGrant, { userId, clientId, scopes: [...scopes], grantedAt: now });
        return;
      } catch (error) {
        if (attempt > 0) throw error;
      }
    }
  }

  /** Forgets the user's grant to the client; false when there was none. */
  async delete(userId: number, clientId: string, manager: EntityManager = this.db): Promise<boolean> {
    const deleted = await manager.delete(OAuthGrant, { userId, clientId });
    return (deleted.affected ?? 0) > 0;
  }

  /** Forgets every grant to a client (it was deleted). */
  async deleteForClient(clientId: string, manager: EntityManager = this.db): Promise<void> {
    await manager.delete(OAuthGrant, { clientId });
  }
}
