import { Injectable } from '@nestjs/common';
import { InjectEntityManager } from '@nestjs/typeorm';
import type { EntityManager } from 'typeorm';
import { SigningKey } from '../entities/signing-key.entity.js';

export type NewSigningKey = Pick<SigningKey, 'kid' | 'algorithm' | 'privateKey' | 'publicKey'>;

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
}
