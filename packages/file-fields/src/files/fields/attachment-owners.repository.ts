import { Injectable } from '@nestjs/common';
import { InjectEntityManager } from '@nestjs/typeorm';
import type { EntityManager, FindOneOptions, ObjectLiteral } from 'typeorm';
import type { Transaction } from '../../database/unit-of-work.js';
import type { AttachableEntity } from './file-field.registry.js';

/** The rows of the entities files are attached to, whatever their table. */
@Injectable()
export class AttachmentOwnersRepository {
  constructor(@InjectEntityManager() private readonly db: EntityManager) {}

  async exists(owner: AttachableEntity, id: number): Promise<boolean> {
    return (await this.db.findOne<ObjectLiteral>(owner.target, byId(owner, id))) !== null;
  }

  /**
   * Whether the entity exists, holding its row until the transaction ends, so that changes to one entity's files
   * (appends, deletions, reordering) run one at a time. PostgreSQL needs the row lock (SELECT ... FOR UPDATE);
   * SQLite has none, and needs none: UnitOfWork already runs its transactions one after another there.
   */
  async lock(
    tx: Pick<Transaction, 'manager' | 'supportsRowLocks'>,
    owner: AttachableEntity,
    id: number,
  ): Promise<boolean> {
    const options = byId(owner, id);
    if (tx.supportsRowLocks) options.lock = { mode: 'pessimistic_write' };
    return (await tx.manager.findOne<ObjectLiteral>(owner.target, options)) !== null;
  }
}

function byId(owner: AttachableEntity, id: number): FindOneOptions<ObjectLiteral> {
  const primary = owner.metadata.primaryColumns[0].propertyName;
  return { where: { [primary]: id }, select: { [primary]: true } };
}
