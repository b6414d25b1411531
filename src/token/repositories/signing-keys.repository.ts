import { Injectable } from '@nestjs/common';
import { InjectEntityManager } from '@nestjs/typeorm';
import { IsNull, LessThan, Not, type EntityManager } from 'typeorm';
import { SigningKey } from '../entities/signing-key.entity.js';

export type NewSigningKey = Pick<SigningKey, 'kid' | 'algorithm' | 'privateKey' | 'publicKey'> &
  Partial<Pick<SigningKey, 'activatesAt'>>;

/** The stored signing keys. */
@Injectable()
export class SigningKeysRepository {
  constructor(@InjectEntityManager() private readonly db: EntityManager) {}

  newestFirst(): Promise<SigningKey[]> {
    return this.db.find(SigningKey, { order: { createdAt: 'DESC' } });
  }

  /** Stores the key unless it cannot be (another instance stored one at the same moment): false then. */
  async tryInsert(key: NewSigningKey): Promise<boolean> {
    return this.db.insert(SigningKey, this.db.create(SigningKey, key)).then(
      () => true,
      () => false,
    );
  }

  /** Marks every key but `kid` that is not retired yet as retired from `at` (epoch ms), when `kid` takes over. */
  async retireAllBut(kid: string, at: number): Promise<void> {
    await this.db.update(SigningKey, { kid: Not(kid), retiredAt: IsNull() }, { retiredAt: at });
  }

  /** Deletes the keys retired before `before` (epoch ms). */
  async deleteRetiredBefore(before: number): Promise<void> {
    await this.db.delete(SigningKey, { retiredAt: LessThan(before) });
  }
}
