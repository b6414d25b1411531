import { Injectable } from '@nestjs/common';
import { InjectEntityManager } from '@nestjs/typeorm';
import type { EntityManager } from 'typeorm';
import { Integration } from '../entities/integration.entity.js';

/** Integrations; methods given a manager run in its transaction. */
@Injectable()
export class IntegrationsRepository {
  constructor(@InjectEntityManager() private readonly db: EntityManager) {}

  list(manager: EntityManager = this.db): Promise<Integration[]> {
    return manager.find(Integration, { order: { id: 'ASC' } });
  }

  findById(id: number, manager: EntityManager = this.db): Promise<Integration | null> {
    return manager.findOneBy(Integration, { id });
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
   * Writes the columns the administration API edits, and reads the row back. Never `last_used_at`: token requests
   * write it meanwhile, and a whole-entity save would put back the value read before the edit.
   */
  async saveEdits(integration: Integration, manager: EntityManager = this.db): Promise<Integration> {
    const { id, label, roleId, active, tokenVersion, expiresAt, owner } = integration;
    const { secretHash, previousSecretHash, previousSecretExpiresAt } = integration;
    const edits = { label, roleId, active, tokenVersion, expiresAt, owner };
    await manager.update(Integration, { id }, { ...edits, secretHash, previousSecretHash, previousSecretExpiresAt });
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
