import { createHmac } from 'node:crypto';

/** `sha256=<hex>`: HMAC-SHA256 of the exact body bytes, the format of GitHub's X-Hub-Signature-256. */
export function signatureOf(body: string | Buffer, secret: string): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

/** The X-Signature header: one signature per secret (two while a rotated secret is in its grace period). */
export function signatureHeader(body: string | Buffer, secrets: readonly string[]): string {
  return secrets.map((secret) => signatureOf(body, secret)).join(', ');
}
