import { Injectable } from '@nestjs/common';
import { createHash, type Hash } from 'node:crypto';

/** Hashes kept at once; each is a few hundred bytes of OpenSSL state. */
const CAPACITY = 1024;

/**
 * The SHA-256 of each upload's bytes so far, carried from one request to the next on this instance, so that a file
 * that arrived here in order needs no second read at completion. An upload continued elsewhere, or after a request
 * that broke midway, has none here: its completion reads the stored file once to hash it.
 */
@Injectable()
export class HashCarry {
  private readonly hashes = new Map<number, { offset: number; hash: Hash }>();

  /** A hash to continue at `offset` (a copy: the kept one stays valid if this request fails), or undefined. */
  continueAt(uploadId: number, offset: number): Hash | undefined {
    if (offset === 0) return createHash('sha256');
    const kept = this.hashes.get(uploadId);
    return kept?.offset === offset ? kept.hash.copy() : undefined;
  }

  keep(uploadId: number, offset: number, hash: Hash | undefined): void {
    this.hashes.delete(uploadId);
    if (!hash) return;
    if (this.hashes.size >= CAPACITY) this.hashes.delete(this.hashes.keys().next().value!);
    this.hashes.set(uploadId, { offset, hash });
  }

  /** The hex digest when the kept hash covers `length` bytes; the hash is forgotten either way. */
  take(uploadId: number, length: number): string | undefined {
    const kept = this.hashes.get(uploadId);
    this.hashes.delete(uploadId);
    return kept?.offset === length ? kept.hash.digest('hex') : undefined;
  }

  forget(uploadId: number): void {
    this.hashes.delete(uploadId);
  }
}
