import { Inject, Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { Clock } from '@file-fields/nest';
import { SigningKeysRepository } from '../repositories/signing-keys.repository.js';
import { tokenConfig, type TokenConfig } from '../token.config.js';
import { KeyRing, type LoadedSigningKey } from './key-ring.js';

export const SIGNING_ALGORITHM = 'ES256';

/**
 * The least time between two reloads for a token whose `kid` is unknown here: anyone can send such tokens, and each
 * reload reads the database.
 */
export const UNKNOWN_KID_RELOAD_MS = 10_000;

/**
 * The ES256 keys that sign access tokens (a {@link KeyRing}): rotated on demand or every SIGNING_KEY_ROTATION, a new
 * key published SIGNING_KEY_PREPUBLISH before it signs, the key it replaces published until every token it signed
 * has expired (retired + ACCESS_TOKEN_TTL).
 */
@Injectable()
export class SigningKeysService extends KeyRing implements OnModuleInit {
  private readonly reloadLogger = new Logger(SigningKeysService.name);
  /** The reload asked for by an unknown kid (joined by concurrent ones), and when the last one started. */
  private reloadingForKid?: Promise<void>;
  private reloadedForKidAt = -Infinity;

  constructor(repository: SigningKeysRepository, clock: Clock, @Inject(tokenConfig.KEY) config: TokenConfig) {
    super(repository, clock, {
      purpose: 'access-token',
      algorithm: SIGNING_ALGORITHM,
      prepublishMs: config.signingKeyPrepublishMs,
      rotationMs: config.signingKeyRotationMs,
      retainMs: config.accessTokenTtl * 1000,
    });
  }

  /**
   * A published key, reloading the keys first when `kid` is unknown here: another instance may have added it since
   * the last reload (which should not happen before it signs, but a reload may have failed). At most one such reload
   * per UNKNOWN_KID_RELOAD_MS; within that time an unknown kid stays unknown.
   */
  async findFresh(kid: string): Promise<LoadedSigningKey | undefined> {
    const known = this.find(kid);
    if (known) return known;
    if (!this.reloadingForKid && this.clock.nowMs() - this.reloadedForKidAt >= UNKNOWN_KID_RELOAD_MS) {
      this.reloadedForKidAt = this.clock.nowMs();
      this.reloadingForKid = this.load()
        .catch((error: unknown) => this.reloadLogger.warn({ err: error }, 'Reloading the signing keys failed'))
        .finally(() => (this.reloadingForKid = undefined));
    }
    await this.reloadingForKid;
    return this.find(kid);
  }
}
