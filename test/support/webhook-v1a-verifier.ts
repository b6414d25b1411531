/*
 * A receiver's check of Standard Webhooks `v1a` signatures, knowing nothing but the URL of the service's key set.
 * docs/webhooks-receiving.md quotes this file; test/webhooks-v1a.e2e-spec.ts runs it against the service.
 */
import { createRemoteJWKSet, errors, type RemoteJWKSetOptions } from 'jose';

/** How far `webhook-timestamp` may be from the receiver's clock: as the Standard Webhooks libraries allow. */
const TOLERANCE_SECONDS = 5 * 60;

export type V1aVerification = { valid: true; kid: string } | { valid: false; reason: string };

export interface V1aVerifierOptions extends RemoteJWKSetOptions {
  /** The receiver's clock in epoch milliseconds; `Date.now` unless a test moves it. */
  now?: () => number;
}

/**
 * Returns a function that checks one delivery: its raw body (the exact bytes received) and its headers (lower-case
 * names, as Node.js gives them). The key set is fetched on first use, cached, and fetched again for a `kid` it does
 * not hold (at most once every 30 seconds: jose's cooldown), which is how a receiver learns of a new key.
 */
export function v1aVerifier(jwksUrl: string, options: V1aVerifierOptions = {}) {
  const { now = Date.now, ...jwksOptions } = options;
  const keys = createRemoteJWKSet(new URL(jwksUrl), jwksOptions);

  return async function verify(
    rawBody: string | Buffer,
    headers: Record<string, string | string[] | undefined>,
  ): Promise<V1aVerification> {
    const header = (name: string) => {
      const value = headers[name];
      return typeof value === 'string' ? value : '';
    };
    const id = header('webhook-id');
    const timestamp = header('webhook-timestamp');
    const kid = header('webhook-key-id');
    if (!id || !timestamp || !kid) return { valid: false, reason: 'missing webhook-id, -timestamp or -key-id' };
    // Signed below, so a replayed delivery cannot carry a new time; checked first, so a stale one costs nothing.
    if (!/^\d+$/.test(timestamp) || Math.abs(now() / 1000 - Number(timestamp)) > TOLERANCE_SECONDS) {
      return { valid: false, reason: 'stale timestamp' };
    }
    const key = await keys({ alg: 'EdDSA', kid }).catch((error: unknown) => {
      // An unknown kid is the request's fault; a key set out of reach is not: the error answers 5xx, and is retried.
      if (error instanceof errors.JWKSNoMatchingKey) return undefined;
      throw error;
    });
    if (!key) return { valid: false, reason: `no published key ${kid}` };
    const signed = Buffer.concat([Buffer.from(`${id}.${timestamp}.`), Buffer.from(rawBody)]);
    // `v1a,<base64>` entries, space-separated; `v1,` ones (HMAC with a shared secret) are not this check's.
    for (const entry of header('webhook-signature').split(' ')) {
      if (!entry.startsWith('v1a,')) continue;
      const signature = Buffer.from(entry.slice('v1a,'.length), 'base64');
      if (await crypto.subtle.verify('Ed25519', key, signature, signed)) return { valid: true, kid };
    }
    return { valid: false, reason: 'signature mismatch' };
  };
}
