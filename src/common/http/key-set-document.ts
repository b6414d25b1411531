import type { JsonWebKey } from 'node:crypto';
import type { Request, Response } from 'express';
import { ConstantDocument } from './constant-document.js';

/** A JWK Set as it is handed out by a key ring: the same object until the published keys change. */
export interface KeySet {
  keys: JsonWebKey[];
}

/**
 * A JWK Set served as a {@link ConstantDocument}: serialized again only when the key ring hands out another set
 * (rotation, retirement), answered 304 to a verifier that holds it. Verifiers refetch a set on a `kid` they do not
 * know, so a few minutes of caching never refuses a new key.
 */
export class KeySetDocument {
  private sent?: { set: KeySet; document: ConstantDocument };

  constructor(private readonly maxAgeSeconds = 300) {}

  send(set: KeySet, request: Request, response: Response): void {
    if (this.sent?.set !== set) {
      this.sent = { set, document: new ConstantDocument(set, undefined, this.maxAgeSeconds) };
    }
    this.sent.document.send(request, response);
  }
}
