import { createHmac, createSecretKey, timingSafeEqual, type KeyObject } from 'node:crypto';

/** What a signed file URL vouches for: these bytes (a record's, or one variant's), until `expires`. */
export interface SignedFields {
  id: number;
  /** The storage key of the record. */
  storageKey: string;
  /** The variant's name and storage key, for a URL of one variant. */
  variant?: { name: string; storageKey: string };
  /** Unix time in seconds. */
  expires: number;
}

/** A signature's form in a URL: base64url of the 32 bytes of an HMAC-SHA256. */
export const SIGNATURE_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/**
 * Signs and checks file URLs with HMAC-SHA256. The key is parsed once into a KeyObject; the message is the fields,
 * one per line (storage keys and variant names never hold a line break), under a version prefix, so no two field sets
 * share a message and a later format cannot collide with this one.
 */
export class UrlSigner {
  private readonly key: KeyObject;

  constructor(key: Uint8Array) {
    if (key.length < 32) throw new Error('A file URL signing key has at least 32 bytes');
    this.key = createSecretKey(key);
  }

  sign(fields: SignedFields): string {
    return this.mac(fields).toString('base64url');
  }

  /**
   * Whether `signature` is this key's over `fields`, compared in constant time. Compared as text, not as decoded
   * bytes: base64url ignores the last character's low bits, which would let one signature be written several ways.
   */
  verify(fields: SignedFields, signature: string): boolean {
    if (!SIGNATURE_PATTERN.test(signature)) return false;
    return timingSafeEqual(Buffer.from(this.sign(fields)), Buffer.from(signature));
  }

  private mac({ id, storageKey, variant, expires }: SignedFields): Buffer {
    const message = `file-url:v1\n${id}\n${storageKey}\n${variant?.name ?? ''}\n${variant?.storageKey ?? ''}\n${expires}`;
    return createHmac('sha256', this.key).update(message).digest();
  }
}

/** The longest window: a URL is issued unchanged for at most an hour, whatever its lifetime. */
const MAX_WINDOW_SECONDS = 3600;

/** The window a URL is issued in: from `start` on, for a window, the same URL, valid until `expires` (Unix seconds). */
export interface UrlWindow {
  start: number;
  expires: number;
}

/**
 * URLs are issued per window (the TTL, at most an hour) and expire a TTL after the window's end: the same file gets
 * the same URL for the whole window (browsers and caches keep it), and every URL lives at least `ttlSeconds` from
 * the moment it is handed out, at most a window more.
 */
export function urlWindow(nowMs: number, ttlSeconds: number): UrlWindow {
  const length = Math.min(ttlSeconds, MAX_WINDOW_SECONDS);
  const now = Math.floor(nowMs / 1000);
  const start = now - (now % length);
  return { start, expires: start + length + ttlSeconds };
}
