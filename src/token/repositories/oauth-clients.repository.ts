import { Injectable } from '@nestjs/common';
import { InjectEntityManager } from '@nestjs/typeorm';
import type { EntityManager } from 'typeorm';
import { findPage, type Page, type PageQuery } from '@file-fields/nest';
import type { Transaction } from '@file-fields/nest';
import { OAUTH_CLIENT_LIST } from './list-specs.js';
import { OAuthClient } from './entities/oauth-client.entity.js';

export type NewOAuthClient = Pick<
  OAuthClient,
  'clientId' | 'name' | 'redirectUris' | 'public' | 'scopes' | 'defaultScopes' | 'secretHash' | 'createdBy'
>;
export type OAuthClientEdits = Partial<
  Pick<
    OAuthClient,
    | 'name'
    | 'redirectUris'
    | 'scopes'
    | 'defaultScopes'
    | 'secretHash'
    | 'previousSecretHash'
    | 'previousSecretExpiresAt'
  >
>;

/** Registered OAuth clients; methods given a manager run in its transaction. */
@Injectable()
export class OAuthClientsRepository {
  constructor(@InjectEntityManager() private readonly db: EntityManager) {}

  page(query: PageQuery): Promise<Page<OAuthClient>> {
    return findPage(this.db.getRepository(OAuthClient), query, OAUTH_CLIENT_LIST);
  }

  findByClientId(clientId: string, manager: EntityManager = this.db): Promise<OAuthClient | null> {
    return manager.findOneBy(OAuthClient, { clientId });
  }

  /** The client, its row locked until the transaction ends where rows can be locked (SQLite runs one at a time). */
  findForUpdate(clientId: string, tx: Pick<Transaction, 'manager' | 'supportsRowLocks'>): Promise<OAuthClient | null> {
    const lock = tx.supportsRowLocks ? { lock: { mode: 'for_no_key_update' as const } } : {};
    return tx.manager.findOne(OAuthClient, { where: { clientId }, ...lock });
  }

  create(client: NewOAuthClient, manager: EntityManager = this.db): Promise<OAuthClient> {
    return manager.save(manager.create(OAuthClient, client));
  }

  async applyEdits(id: number, edits: OAuthClientEdits, manager: EntityManager = this.db): Promise<OAuthClient> {
    if (Object.keys(edits).length > 0) await manager.update(OAuthClient, { id }, edits);
    return manager.findOneByOrFail(OAuthClient, { id });
  }

  async delete(id: number, manager: EntityManager = this.db): Promise<void> {
    await manager.delete(OAuthClient, { id });
  }
}
