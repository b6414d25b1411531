import { createHash, randomBytes } from 'node:crypto';

/** 160 random bits: the id is what an upload's URL carries, and nobody can guess one. */
const ID_BYTES = 20;
const ID_PATTERN = /^[A-Za-z0-9_-]{27}$/;

/** A new upload id (base64url) and the SHA-256 stored in its place. */
export function newUploadId(random: (size: number) => Buffer = randomBytes): { id: string; hash: string } {
  const id = random(ID_BYTES).toString('base64url');
  return { id, hash: hashUploadId(id) };
}

export function hashUploadId(id: string): string {
  return createHash('sha256').update(id).digest('hex');
}

/** Whether a path segment can be an upload id at all; anything else is answered as missing without a query. */
export function isUploadId(value: string): boolean {
  return ID_PATTERN.test(value);
}
