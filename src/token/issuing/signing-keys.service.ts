import { Inject, Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import {
  createHash,
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  randomUUID,
  type JsonWebKey,
  type KeyObject,
} from 'node:crypto';
import { Clock } from '@file-fields/nest';
import type { SigningKey } from '../repositories/entities/signing-key.entity.js';
import { SigningKeysRepository } from '../repositories/signing-keys.repository.js';
import { tokenConfig, type TokenConfig } from '../token.config.js';

export const SIGNING_ALGORITHM = 'ES256';

/**
 * The least time between two reloads for a token whose `kid` is unknown here: anyone can send such tokens, and each
 * reload reads the database.
 */
export const UNKNOWN_KID_RELOAD_MS = 10_000;

/** When a key starts (or started) signing, epoch ms. */
const activation = (key: SigningKey): number => key.activatesAt ?? key.createdAt.getTime();

/** A stored key parsed once: the key objects sign and verify, and its public JWK is ready for the JWKS. */
export interface LoadedSigningKey {
  kid: string;
  algorithm: string;
  privateKey: KeyObject;
  publicKey: KeyObject;
  jwk: JsonWebKey;
  activatesAt: number;
  retiredAt: number | null;
}

function parse(key: SigningKey): LoadedSigningKey {
  const publicKey = createPublicKey(key.publicKey);
  return {
    kid: key.kid,
    algorithm: key.algorithm,
    privateKey: createPrivateKey(key.privateKey),
    publicKey,
    jwk: { ...publicKey.export({ format: 'jwk' }), kid: key.kid, alg: key.algorithm, use: 'sig' },
    activatesAt: activation(key),
    retiredAt: key.retiredAt,
  };
}

/**
 * The ES256 keys that sign access tokens. The first instance to start generates one and stores it; every instance
 * loads the same keys, so a token issued by one verifies on all. A rotation (on demand, or every
 * SIGNING_KEY_ROTATION) adds a key that is published at once and signs only from SIGNING_KEY_PREPUBLISH later; the key
 * it replaces stays published until every token it signed has expired (retired + ACCESS_TOKEN_TTL).
 * Keys are parsed once when loaded (not per token), and the JWKS document is built once per change of the published set.
 */
@Injectable()
export class SigningKeysService implements OnModuleInit {
  private readonly logger = new Logger(SigningKeysService.name);
  /** Newest activation first. */
  private keys: LoadedSigningKey[] = [];
  private jwksDocument?: { kids: string; document: { keys: JsonWebKey[] } };
  /** The reload asked for by an unknown kid (joined by concurrent ones), and when the last one started. */
  private reloadingForKid?: Promise<void>;
  private reloadedForKidAt = -Infinity;

  constructor(
    private readonly repository: SigningKeysRepository,
    private readonly clock: Clock,
    @Inject(tokenConfig.KEY) private readonly config: TokenConfig,
  ) {}

  async onModuleInit(): Promise<void> {
    await this.load();
    if (this.keys.length === 0) {
      // Another instance may have stored its key meanwhile: keep whichever exists.
      await this.repository.tryInsert(this.generate(randomUUID(), null));
      await this.load();
    }
  }

  /** The newest key that has started signing. */
  current(): LoadedSigningKey {
    const now = this.clock.nowMs();
    const key = this.keys.find((candidate) => candidate.activatesAt <= now) ?? this.keys.at(-1);
    if (!key) throw new Error('No signing key loaded');
    return key;
  }

  /** A published key, to verify a token it signed. */
  find(kid: string): LoadedSigningKey | undefined {
    return this.published().find((key) => key.kid === kid);
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
        .catch((error: unknown) => this.logger.warn({ err: error }, 'Reloading the signing keys failed'))
        .finally(() => (this.reloadingForKid = undefined));
    }
    await this.reloadingForKid;
    return this.find(kid);
  }

  /** The public keys as a JWK Set (RFC 7517): upcoming, current, and retired ones whose tokens may still be live. */
  jwks(): { keys: JsonWebKey[] } {
    const published = this.published();
    const kids = published.map((key) => key.kid).join(' ');
    if (this.jwksDocument?.kids !== kids) {
      this.jwksDocument = { kids, document: { keys: published.map((key) => key.jwk) } };
    }
    return this.jwksDocument.document;
  }

  /**
   * Adds a key that is published now and signs from SIGNING_KEY_PREPUBLISH on; the keys it replaces retire then.
   * `kid` defaults to a random one.
   */
  async rotate(kid: string = randomUUID()): Promise<{ kid: string; activatesAt: number } | undefined> {
    const activatesAt = this.clock.nowMs() + this.config.signingKeyPrepublishMs;
    // A taken kid means another instance added this very successor (scheduled rotation): nothing to do.
    if (!(await this.repository.tryInsertSuccessor(this.generate(kid, activatesAt), activatesAt))) return undefined;
    await this.load();
    return { kid, activatesAt };
  }

  /**
   * The scheduled rotation: when the newest key in the database has signed for SIGNING_KEY_ROTATION minus the
   * prepublish time, adds its successor. The successor's kid derives from the newest key's, so instances that decide
   * at the same moment insert the same kid and only one of them succeeds.
   */
  async rotateIfDue(): Promise<void> {
    const every = this.config.signingKeyRotationMs;
    if (every === undefined) return;
    await this.load();
    const newest = this.keys[0];
    const now = this.clock.nowMs();
    if (!newest || newest.activatesAt > now || now < newest.activatesAt + every - this.config.signingKeyPrepublishMs) {
      return;
    }
    const kid = createHash('sha256').update(`${newest.kid}/successor`).digest('hex').slice(0, 32);
    const rotated = await this.rotate(kid);
    if (rotated) this.logger.log({ kid, activatesAt: new Date(rotated.activatesAt) }, 'Rotated the signing key');
  }

  private published(): LoadedSigningKey[] {
    const now = this.clock.nowMs();
    const ttlMs = this.config.accessTokenTtl * 1000;
    return this.keys.filter((key) => key.retiredAt === null || key.retiredAt + ttlMs > now);
  }

  /**
   * One periodic pass (a background job, every SIGNING_KEYS_RELOAD_MS): the scheduled rotation, the deletion of keys
   * no token needs any more, and a reload.
   */
  async reload(): Promise<void> {
    await this.rotateIfDue();
    await this.repository.deleteRetiredBefore(this.clock.nowMs() - this.config.accessTokenTtl * 1000);
    await this.load();
  }

  private generate(kid: string, activatesAt: number | null) {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    return {
      kid,
      algorithm: SIGNING_ALGORITHM,
      privateKey: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      publicKey: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
      activatesAt,
    };
  }

  /** Reloads the stored keys, parsing only those not seen before (their retirement may have changed). */
  private async load(): Promise<void> {
    const stored = await this.repository.newestFirst();
    stored.sort((a, b) => activation(b) - activation(a) || b.createdAt.getTime() - a.createdAt.getTime());
    const known = new Map(this.keys.map((key) => [key.kid, key]));
    this.keys = stored.map((key) => {
      const loaded = known.get(key.kid) ?? parse(key);
      return { ...loaded, activatesAt: activation(key), retiredAt: key.retiredAt };
    });
  }
}
