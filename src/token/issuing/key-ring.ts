import { Logger } from '@nestjs/common';
import {
  createHash,
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  randomUUID,
  type JsonWebKey,
  type KeyObject,
} from 'node:crypto';
import type { Clock } from '@file-fields/nest';
import type { SigningKey, SigningKeyPurpose } from '../repositories/entities/signing-key.entity.js';
import type { NewSigningKey, SigningKeysRepository } from '../repositories/signing-keys.repository.js';

/** The algorithms a key ring signs with: ES256 (access tokens) or EdDSA over Ed25519 (webhooks' `v1a`). */
type KeyRingAlgorithm = 'ES256' | 'EdDSA';

/** What a key ring signs for, and how its keys come and go. */
export interface KeyRingOptions {
  purpose: SigningKeyPurpose;
  algorithm: KeyRingAlgorithm;
  /** How long a new key is published before it signs. */
  prepublishMs: number;
  /** How often the schedule rotates; undefined: only on demand. */
  rotationMs: number | undefined;
  /** How long a retired key stays published: until whatever it signed can no longer be presented. */
  retainMs: number;
}

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

function generatePair(algorithm: KeyRingAlgorithm): { privateKey: KeyObject; publicKey: KeyObject } {
  return algorithm === 'EdDSA' ? generateKeyPairSync('ed25519') : generateKeyPairSync('ec', { namedCurve: 'P-256' });
}

/**
 * The asymmetric keys of one purpose, shared by every instance through the database. The first instance to start
 * generates one; a rotation (on demand, or every `rotationMs`) adds a key that is published at once and signs only
 * `prepublishMs` later; the key it replaces stays published `retainMs` after it retired. Keys are parsed once when
 * loaded, and the JWKS document is built once per change of the published set.
 */
export class KeyRing {
  private readonly logger: Logger;
  /** Newest activation first. */
  private keys: LoadedSigningKey[] = [];
  private jwksDocument?: { kids: string; document: { keys: JsonWebKey[] } };

  constructor(
    private readonly repository: SigningKeysRepository,
    protected readonly clock: Clock,
    private readonly options: KeyRingOptions,
  ) {
    this.logger = new Logger(`KeyRing(${options.purpose})`);
  }

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
    if (!key) throw new Error(`No ${this.options.purpose} signing key loaded`);
    return key;
  }

  /** A published key, to verify what it signed. */
  find(kid: string): LoadedSigningKey | undefined {
    return this.published().find((key) => key.kid === kid);
  }

  /** The public keys as a JWK Set (RFC 7517): upcoming, current, and retired ones still within `retainMs`. */
  jwks(): { keys: JsonWebKey[] } {
    const published = this.published();
    const kids = published.map((key) => key.kid).join(' ');
    if (this.jwksDocument?.kids !== kids) {
      this.jwksDocument = { kids, document: { keys: published.map((key) => key.jwk) } };
    }
    return this.jwksDocument.document;
  }

  /** The published keys, newest activation first, with when each stops being published (null: not retired). */
  publishedKeys(): Array<LoadedSigningKey & { publishedUntil: number | null }> {
    return this.published().map((key) => ({
      ...key,
      publishedUntil: key.retiredAt === null ? null : key.retiredAt + this.options.retainMs,
    }));
  }

  /**
   * Adds a key that is published now and signs from `prepublishMs` on; the keys it replaces retire then. `kid`
   * defaults to a random one.
   */
  async rotate(kid: string = randomUUID()): Promise<{ kid: string; activatesAt: number } | undefined> {
    const activatesAt = this.clock.nowMs() + this.options.prepublishMs;
    // A taken kid means another instance added this very successor (scheduled rotation): nothing to do.
    if (!(await this.repository.tryInsertSuccessor(this.generate(kid, activatesAt), activatesAt))) return undefined;
    await this.load();
    return { kid, activatesAt };
  }

  /**
   * The scheduled rotation: when the newest key in the database has signed for `rotationMs` minus the prepublish
   * time, adds its successor. The successor's kid derives from the newest key's, so instances that decide at the
   * same moment insert the same kid and only one of them succeeds.
   */
  async rotateIfDue(): Promise<void> {
    const every = this.options.rotationMs;
    if (every === undefined) return;
    await this.load();
    const newest = this.keys[0];
    const now = this.clock.nowMs();
    if (!newest || newest.activatesAt > now || now < newest.activatesAt + every - this.options.prepublishMs) return;
    const kid = createHash('sha256').update(`${newest.kid}/successor`).digest('hex').slice(0, 32);
    const rotated = await this.rotate(kid);
    if (rotated) this.logger.log({ kid, activatesAt: new Date(rotated.activatesAt) }, 'Rotated the signing key');
  }

  /** One periodic pass: the scheduled rotation, the deletion of keys no longer published, and a reload. */
  async reload(): Promise<void> {
    await this.rotateIfDue();
    await this.repository.deleteRetiredBefore(this.options.purpose, this.clock.nowMs() - this.options.retainMs);
    await this.load();
  }

  private published(): LoadedSigningKey[] {
    const now = this.clock.nowMs();
    return this.keys.filter((key) => key.retiredAt === null || key.retiredAt + this.options.retainMs > now);
  }

  private generate(kid: string, activatesAt: number | null): NewSigningKey {
    const { privateKey, publicKey } = generatePair(this.options.algorithm);
    return {
      kid,
      purpose: this.options.purpose,
      algorithm: this.options.algorithm,
      privateKey: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      publicKey: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
      activatesAt,
    };
  }

  /** Reloads the stored keys, parsing only those not seen before (their retirement may have changed). */
  protected async load(): Promise<void> {
    const stored = await this.repository.newestFirst(this.options.purpose);
    stored.sort((a, b) => activation(b) - activation(a) || b.createdAt.getTime() - a.createdAt.getTime());
    const known = new Map(this.keys.map((key) => [key.kid, key]));
    this.keys = stored.map((key) => {
      const loaded = known.get(key.kid) ?? parse(key);
      return { ...loaded, activatesAt: activation(key), retiredAt: key.retiredAt };
    });
  }
}
