import { Injectable } from '@nestjs/common';
import { InjectEntityManager } from '@nestjs/typeorm';
import type { EntityManager } from 'typeorm';
import { findPage, type Page, type PageQuery } from '@file-fields/nest';
import type { Transaction } from '@file-fields/nest';
import { INTEGRATION_LIST } from './list-specs.js';
import { Integration } from './entities/integration.entity.js';

/**
 * The columns the administration API edits. Never `last_used_at`: token requests write it meanwhile. `revoke` ends the
 * live tokens: the token version rises.
 */
export type IntegrationEdits = { revoke?: boolean } & Partial<
  Pick<
    Integration,
    | 'label'
    | 'roleId'
    | 'active'
    | 'expiresAt'
    | 'owner'
    | 'secretHash'
    | 'previousSecretHash'
    | 'previousSecretExpiresAt'
  >
>;

/** Integrations; methods given a manager run in its transaction. */
@Injectable()
export class IntegrationsRepository {
  constructor(@InjectEntityManager() private readonly db: EntityManager) {}

  page(query: PageQuery): Promise<Page<Integration>> {
    return findPage(this.db.getRepository(Integration), query, INTEGRATION_LIST);
  }

  findById(id: number, manager: EntityManager = this.db): Promise<Integration | null> {
    return manager.findOneBy(Integration, { id });
  }

  /** The integration, its row locked until the transaction ends where rows can be locked (SQLite runs one at a time). */
  findForUpdate(id: number, tx: Pick<Transaction, 'manager' | 'supportsRowLocks'>): Promise<Integration | null> {
    // Not FOR UPDATE, which would also hold back the insertion of rows that reference this one (foreign keys).
    const lock = tx.supportsRowLocks ? { lock: { mode: 'for_no_key_update' as const } } : {};
    return tx.manager.findOne(Integration, { where: { id }, ...lock });
  }

  findByAccessKey(accessKeyId: string, manager: EntityManager = this.db): Promise<Integration | null> {
    return manager.findOneBy(Integration, { accessKeyId });
  }

  countWithRole(roleId: number, manager: EntityManager = this.db): Promise<number> {
    return manager.countBy(Integration, { roleId });
  }

  create(
    integration: Pick<Integration, 'label' | 'roleId' | 'accessKeyId' | 'secretHash'> &
      Partial<Pick<Integration, 'expiresAt' | 'owner'>>,
    manager: EntityManager = this.db,
  ): Promise<Integration> {
    return manager.save(manager.create(Integration, integration));
  }

  /**
   * Writes only the given columns, and reads the row back. The token version rises in SQL, so that a concurrent raise
   * (a role narrowed) is added to, never written over.
   */
  async applyEdits(id: number, edits: IntegrationEdits, manager: EntityManager = this.db): Promise<Integration> {
    const { revoke, ...columns } = edits;
    const raise = revoke ? { tokenVersion: () => 'token_version + 1' } : {};
    if (revoke || Object.keys(columns).length > 0) await manager.update(Integration, { id }, { ...columns, ...raise });
    return manager.findOneByOrFail(Integration, { id });
  }

  async delete(id: number, manager: EntityManager = this.db): Promise<void> {
    await manager.delete(Integration, { id });
  }

  async markUsed(id: number, now: number, manager: EntityManager = this.db): Promise<void> {
    await manager.update(Integration, { id }, { lastUsedAt: now });
  }

  /** Ends the live access tokens of every integration with the role. */
  async raiseTokenVersionOfRole(roleId: number, manager: EntityManager = this.db): Promise<void> {
    await manager.increment(Integration, { roleId }, 'tokenVersion', 1);
  }
}
