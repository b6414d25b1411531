import { timingSafeEqual } from 'node:crypto';
import { signatureOf } from './webhook-signer.js';

export interface VerifyOptions {
  /** Requests whose timestamp is further than this from now are refused (default 300 s). */
  toleranceSeconds?: number;
  /** The current time in epoch seconds (for tests). */
  now?: number;
}

export type VerifyResult = { valid: true; timestamp: number } | { valid: false; reason: string };

type Headers = Record<string, string | string[] | undefined>;

function header(headers: Headers, name: string): string | undefined {
  const value = headers[name] ?? headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
}

/** The `timestamp` of a delivery's JSON body, which the signature covers; undefined when there is none. */
function signedTimestamp(rawBody: string | Buffer): number | undefined {
  try {
    const body: unknown = JSON.parse(Buffer.isBuffer(rawBody) ? rawBody.toString('utf8') : rawBody);
    const timestamp = (body as { timestamp?: unknown } | null)?.timestamp;
    return Number.isInteger(timestamp) ? (timestamp as number) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * For receivers of `github`-scheme endpoints: checks that `X-Signature` or `X-Signature-Next` (sent with the new
 * secret during a rotation's grace period) matches any of the given secrets over the raw body, in constant time, and
 * that the body's own `timestamp` (the time of the attempt, covered by the signature) equals `X-Webhook-Timestamp` and
 * is within the tolerance. The header alone proves nothing: it is not signed, and a replayed delivery could carry any.
 * Comma-separated lists (what earlier versions sent during a rotation) are accepted too. Within the tolerance, a
 * receiver still has to process each event `id` once. `standard` endpoints are verified with any Standard Webhooks
 * library.
 */
export function verifyWebhookSignature(
  rawBody: string | Buffer,
  headers: Headers,
  secrets: readonly string[],
  options: VerifyOptions = {},
): VerifyResult {
  const given = ['x-signature', 'x-signature-next']
    .flatMap((name) => (header(headers, name) ?? '').split(','))
    .map((part) => part.trim())
    .filter(Boolean);
  const timestamp = Number(header(headers, 'x-webhook-timestamp'));
  const now = options.now ?? Math.floor(Date.now() / 1000);
  if (given.length === 0) return { valid: false, reason: 'no signature' };
  if (!Number.isInteger(timestamp)) return { valid: false, reason: 'no timestamp' };
  const expected = secrets.map((secret) => Buffer.from(signatureOf(rawBody, secret)));
  const matches = given.some((signature) => {
    const candidate = Buffer.from(signature);
    return expected.some((wanted) => wanted.length === candidate.length && timingSafeEqual(wanted, candidate));
  });
  if (!matches) return { valid: false, reason: 'signature mismatch' };
  // Only now is the body known to come from the service: its timestamp is the one that counts.
  const signed = signedTimestamp(rawBody);
  if (signed === undefined) return { valid: false, reason: 'no signed timestamp' };
  if (signed !== timestamp) return { valid: false, reason: 'timestamp mismatch' };
  if (Math.abs(now - signed) > (options.toleranceSeconds ?? 300)) return { valid: false, reason: 'stale timestamp' };
  return { valid: true, timestamp: signed };
}
