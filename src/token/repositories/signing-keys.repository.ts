import { Injectable } from '@nestjs/common';
import { InjectEntityManager } from '@nestjs/typeorm';
import { IsNull, LessThan, Not, type EntityManager } from 'typeorm';
import { UnitOfWork } from '@file-fields/nest';
import { SecretBox } from '../../secrets/index.js';
import { SigningKey, type SigningKeyPurpose } from './entities/signing-key.entity.js';

export type NewSigningKey = Pick<SigningKey, 'kid' | 'purpose' | 'algorithm' | 'privateKey' | 'publicKey'> &
  Partial<Pick<SigningKey, 'activatesAt'>>;

/** What a private key is bound to when sealed: its key id, so a sealed key moved to another row does not open. */
export const signingKeyContext = (kid: string) => `signing_keys.private_key:${kid}`;

/** The stored signing keys of each purpose; private keys are sealed with the {@link SecretBox} in the database, plain in memory. */
@Injectable()
export class SigningKeysRepository {
  constructor(
    @InjectEntityManager() private readonly db: EntityManager,
    private readonly box: SecretBox,
    private readonly unitOfWork: UnitOfWork,
  ) {}

  async newestFirst(purpose: SigningKeyPurpose): Promise<SigningKey[]> {
    const keys = await this.db.find(SigningKey, { where: { purpose }, order: { createdAt: 'DESC' } });
    for (const key of keys) key.privateKey = this.box.open(key.privateKey, signingKeyContext(key.kid));
    return keys;
  }

  /** Stores the key unless it cannot be (another instance stored one at the same moment): false then. */
  async tryInsert(key: NewSigningKey): Promise<boolean> {
    const privateKey = this.box.seal(key.privateKey, signingKeyContext(key.kid));
    return this.db.insert(SigningKey, this.db.create(SigningKey, { ...key, privateKey })).then(
      () => true,
      () => false,
    );
  }

  /**
   * Stores a successor key and marks every other key of its purpose not retired yet as retired from `at` (epoch ms), when it takes
   * over, in one transaction: a process ending between the two would leave the keys it replaces published for ever.
   * False when the key cannot be stored (another instance stored this very successor): nothing changed then.
   */
  async tryInsertSuccessor(key: NewSigningKey, at: number): Promise<boolean> {
    const privateKey = this.box.seal(key.privateKey, signingKeyContext(key.kid));
    return this.unitOfWork
      .run(async ({ manager }) => {
        await manager.insert(SigningKey, manager.create(SigningKey, { ...key, privateKey }));
        await manager.update(
          SigningKey,
          { kid: Not(key.kid), purpose: key.purpose, retiredAt: IsNull() },
          { retiredAt: at },
        );
      })
      .then(
        () => true,
        () => false,
      );
  }

  /** Deletes the keys of `purpose` retired before `before` (epoch ms). */
  async deleteRetiredBefore(purpose: SigningKeyPurpose, before: number): Promise<void> {
    await this.db.delete(SigningKey, { purpose, retiredAt: LessThan(before) });
  }
}
