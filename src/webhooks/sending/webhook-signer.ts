import { createHmac, randomBytes, sign, type KeyObject } from 'node:crypto';

/**
 * How an endpoint's deliveries are signed. `github`: `X-Signature: sha256=<hex>` over the body, GitHub's
 * X-Hub-Signature-256 format. `standard`: Standard Webhooks v1 (`webhook-id`, `webhook-timestamp`,
 * `webhook-signature: v1,<base64>` over `{id}.{timestamp}.{body}`), also Svix's format. `standard-v1a`: Standard
 * Webhooks v1a, Ed25519 over the same content (`webhook-signature: v1a,<base64>`), verified with the published public
 * keys and no shared secret. `standard-v1-v1a`: both signatures in `webhook-signature`.
 */
export const SIGNATURE_SCHEMES = ['github', 'standard', 'standard-v1a', 'standard-v1-v1a'] as const;
export type SignatureScheme = (typeof SIGNATURE_SCHEMES)[number];

/** The schemes that sign with a shared secret (HMAC); `standard-v1a` has none. */
const SCHEMES_WITH_SECRET: ReadonlySet<SignatureScheme> = new Set(['github', 'standard', 'standard-v1-v1a']);
/** The schemes whose HMAC signature is Standard Webhooks' `v1`, with a `whsec_` secret. */
const STANDARD_V1: ReadonlySet<SignatureScheme> = new Set(['standard', 'standard-v1-v1a']);
/** The schemes signed with the service's Ed25519 key (`v1a`). */
const STANDARD_V1A: ReadonlySet<SignatureScheme> = new Set(['standard-v1a', 'standard-v1-v1a']);

/** Whether the scheme has a shared secret to give the receiver. */
export const hasSharedSecret = (scheme: SignatureScheme): boolean => SCHEMES_WITH_SECRET.has(scheme);

/** The Ed25519 key signing `v1a` signatures now, and its id in the published key set. */
export interface AsymmetricKey {
  kid: string;
  privateKey: KeyObject;
}

/** One secret that signs deliveries, and the scheme it signs them in. */
export interface SigningKey {
  scheme: SignatureScheme;
  secret: string;
}

/** What a signature covers: the event id, the time of the attempt (epoch seconds), and the exact body. */
export interface SignedMessage {
  id: string;
  timestamp: number;
  body: string;
}

/** The prefix of `github` secrets: this service's own, so it promises no other format and secret scanners find it. */
const GITHUB_SECRET_PREFIX = 'ffwh_';
/** The prefix of Standard Webhooks secrets, as the specification has it; the rest is the key in standard base64. */
const STANDARD_SECRET_PREFIX = 'whsec_';

/**
 * A new secret in the scheme's form, 256 random bits either way. `github`: `ffwh_` + base64url, and the whole string
 * (prefix included) is the HMAC key, as GitHub uses its webhook secrets. `standard` and `standard-v1-v1a`: `whsec_` +
 * standard base64 of the key bytes, as the Standard Webhooks specification asks. `standard-v1a`: none (empty).
 */
export function newSigningSecret(scheme: SignatureScheme): string {
  if (!hasSharedSecret(scheme)) return '';
  const key = randomBytes(32);
  return STANDARD_V1.has(scheme)
    ? `${STANDARD_SECRET_PREFIX}${key.toString('base64')}`
    : `${GITHUB_SECRET_PREFIX}${key.toString('base64url')}`;
}

/** `sha256=<hex>`: HMAC-SHA256 of the exact body bytes, keyed with the secret's text, as GitHub signs. */
export function signatureOf(body: string | Buffer, secret: string): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

/** `v1,<base64>`: Standard Webhooks v1, HMAC-SHA256 of `{id}.{timestamp}.{body}` keyed with the decoded secret. */
export function standardSignatureOf(message: SignedMessage, secret: string): string {
  const key = Buffer.from(
    secret.startsWith(STANDARD_SECRET_PREFIX) ? secret.slice(STANDARD_SECRET_PREFIX.length) : secret,
    'base64',
  );
  const hmac = createHmac('sha256', key).update(`${message.id}.${message.timestamp}.${message.body}`);
  return `v1,${hmac.digest('base64')}`;
}

/** `v1a,<base64>`: Standard Webhooks v1a, the Ed25519 signature of `{id}.{timestamp}.{body}`. */
export function asymmetricSignatureOf(message: SignedMessage, privateKey: KeyObject): string {
  const signature = sign(null, Buffer.from(`${message.id}.${message.timestamp}.${message.body}`), privateKey);
  return `v1a,${signature.toString('base64')}`;
}

/**
 * The signature headers of one attempt, given the signing keys oldest first (the previous secret while its grace
 * period lasts, then the current one) and the Ed25519 key signing now. Each scheme's headers are there when one of
 * the keys is in that scheme, which is both during the grace period of a rotation that changed the scheme.
 *
 * `github`: `X-Signature` holds exactly one signature, by the oldest key, so a GitHub-format verifier configured with
 * the secret it knows keeps working until the grace period ends; `X-Signature-Next` holds the new key's during it.
 * Standard Webhooks: `webhook-signature` holds one `v1,` signature per secret and one `v1a,` signature,
 * space-separated, as the specification allows (its verifiers skip the versions they do not check);
 * `webhook-key-id` names the published key (`kid`) that made the `v1a` one.
 */
export function signatureHeaders(
  message: SignedMessage,
  keys: readonly SigningKey[],
  asymmetric: () => AsymmetricKey,
): Record<string, string> {
  const github = keys.filter((key) => key.scheme === 'github').map((key) => key.secret);
  const standard = keys.filter((key) => STANDARD_V1.has(key.scheme)).map((key) => key.secret);
  const signatures = standard.map((secret) => standardSignatureOf(message, secret));
  const headers: Record<string, string> = {};
  if (github.length > 0) headers['X-Signature'] = signatureOf(message.body, github[0]);
  if (github.length > 1) headers['X-Signature-Next'] = signatureOf(message.body, github[github.length - 1]);
  if (keys.some((key) => STANDARD_V1A.has(key.scheme))) {
    const key = asymmetric();
    signatures.push(asymmetricSignatureOf(message, key.privateKey));
    headers['webhook-key-id'] = key.kid;
  }
  if (signatures.length > 0) {
    headers['webhook-id'] = message.id;
    headers['webhook-timestamp'] = String(message.timestamp);
    headers['webhook-signature'] = signatures.join(' ');
  }
  return headers;
}
