import { Injectable, type OnModuleInit } from '@nestjs/common';
import { createPublicKey, generateKeyPairSync, randomUUID, type JsonWebKey } from 'node:crypto';
import type { SigningKey } from './entities/signing-key.entity.js';
import { SigningKeysRepository } from './repositories/signing-keys.repository.js';

export const SIGNING_ALGORITHM = 'ES256';

/**
 * The ES256 keys that sign access tokens. The first instance to start generates one and stores it; every instance
 * loads the same keys, so a token issued by one verifies on all. Older keys stay published for verification.
 */
@Injectable()
export class SigningKeysService implements OnModuleInit {
  private keys: SigningKey[] = [];

  constructor(private readonly repository: SigningKeysRepository) {}

  async onModuleInit(): Promise<void> {
    await this.load();
    if (this.keys.length > 0) return;
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    // Another instance may have stored its key meanwhile: keep whichever exists.
    await this.repository.tryInsert({
      kid: randomUUID(),
      algorithm: SIGNING_ALGORITHM,
      privateKey: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      publicKey: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    });
    await this.load();
  }

  /** The newest key, used for signing. */
  current(): SigningKey {
    const key = this.keys[0];
    if (!key) throw new Error('No signing key loaded');
    return key;
  }

  find(kid: string): SigningKey | undefined {
    return this.keys.find((key) => key.kid === kid);
  }

  /** The public keys as a JWK Set (RFC 7517). */
  jwks(): { keys: JsonWebKey[] } {
    return {
      keys: this.keys.map((key) => ({
        ...createPublicKey(key.publicKey).export({ format: 'jwk' }),
        kid: key.kid,
        alg: key.algorithm,
        use: 'sig',
      })),
    };
  }

  private async load(): Promise<void> {
    this.keys = await this.repository.newestFirst();
  }
}
