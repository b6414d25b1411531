import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

const PREFIX = 'enc:v1:';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** The form of a sealed value: `enc:v1:<key id>:<base64url(iv | ciphertext | tag)>`. */
const ENVELOPE = /^enc:v1:([A-Za-z0-9_-]+):([A-Za-z0-9_-]+)$/;

/** A secret could not be opened: not sealed, sealed with another key, or altered. */
export class SecretBoxError extends Error {
  override name = 'SecretBoxError';
}

/** A short, non-secret fingerprint of a key, written into every sealed value. */
function secretsKeyId(key: Buffer): string {
  return createHash('sha256').update('secrets-key-id:').update(key).digest('base64url').slice(0, 8);
}

/**
 * Seals secrets for storage with AES-256-GCM and opens them again. A random 12-byte IV per seal; the optional
 * `context` (what the value belongs to, e.g. a key id) is authenticated data, so a value moved elsewhere does not open.
 */
export class SecretBox {
  readonly keyId: string;

  constructor(private readonly key: Buffer) {
    if (key.length !== 32) throw new SecretBoxError('A secrets key is 32 bytes');
    this.keyId = secretsKeyId(key);
  }

  /** Whether a stored value is already in the sealed form (whatever the key). */
  static isSealed(value: string): boolean {
    return value.startsWith(PREFIX);
  }

  seal(plaintext: string, context = ''): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv, { authTagLength: TAG_BYTES });
    cipher.setAAD(Buffer.from(context, 'utf8'));
    const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    const payload = Buffer.concat([iv, body, cipher.getAuthTag()]);
    return `${PREFIX}${this.keyId}:${payload.toString('base64url')}`;
  }

  open(sealed: string, context = ''): string {
    const match = ENVELOPE.exec(sealed);
    if (!match) throw new SecretBoxError('The stored value is not a sealed secret');
    const [, keyId, data] = match;
    if (keyId !== this.keyId) {
      throw new SecretBoxError(
        `The secret was sealed with another SECRETS_KEY (key id ${keyId}, this one is ${this.keyId})`,
      );
    }
    const payload = Buffer.from(data, 'base64url');
    if (payload.length < IV_BYTES + TAG_BYTES) throw new SecretBoxError('The sealed secret is truncated');
    const decipher = createDecipheriv('aes-256-gcm', this.key, payload.subarray(0, IV_BYTES), {
      authTagLength: TAG_BYTES,
    });
    decipher.setAAD(Buffer.from(context, 'utf8'));
    decipher.setAuthTag(payload.subarray(payload.length - TAG_BYTES));
    try {
      const body = payload.subarray(IV_BYTES, payload.length - TAG_BYTES);
      return Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8');
    } catch {
      throw new SecretBoxError('The sealed secret was altered or belongs elsewhere: it does not authenticate');
    }
  }
}
