import { digestsEqual, sha256Hex } from '../crypto/secrets.js';

/** An integration's client_id (its access key id): `FFIA` and 20 base32 characters. */
export const ACCESS_KEY_PATTERN = /^FFIA[A-Z2-7]{20}$/;

/** A registered application's client_id: `app_` and 16 random bytes, public, but not to be guessed or enumerated. */
export const OAUTH_CLIENT_ID_PATTERN = /^app_[A-Za-z0-9_-]{22}$/;

/**
 * A client's stored secrets: SHA-256 (hex) of the current one (null: a public client, which has none) and, during a
 * rotation's grace, of the previous one with the end of that grace (epoch ms).
 */
export interface StoredSecrets {
  secretHash: string | null;
  previousSecretHash: string | null;
  previousSecretExpiresAt: number | null;
}

/** Whether a rotated-out secret still works at `nowMs` (its grace period has not ended). */
export function previousSecretActive(stored: StoredSecrets, nowMs: number): boolean {
  return stored.previousSecretHash !== null && (stored.previousSecretExpiresAt ?? 0) > nowMs;
}

/**
 * Whether `secret` is the client's: constant-time comparison with the current hash, and with the previous one while
 * its grace lasts; a client without a secret never matches.
 */
export function secretMatches(stored: StoredSecrets, secret: string, nowMs: number): boolean {
  if (stored.secretHash === null) return false;
  const given = sha256Hex(secret);
  const current = digestsEqual(given, stored.secretHash);
  const previous = previousSecretActive(stored, nowMs) && digestsEqual(given, stored.previousSecretHash ?? '');
  return current || previous;
}
