import { createHash } from 'node:crypto';
import type { Request, Response } from 'express';

/**
 * A document that changes only with what it describes (the JWKS, the authorization server's metadata, the OpenAPI
 * document): serialized once, sent as the same bytes each time with a strong ETag and a cache lifetime, and answered
 * 304 to a client that already holds it. A handler sends it through `@Res()`, so nothing in Nest's pipeline walks or
 * re-serializes it.
 */
export class ConstantDocument {
  readonly body: Buffer;
  readonly etag: string;
  private readonly cacheControl: string;

  constructor(
    content: string | object,
    readonly contentType = 'application/json; charset=utf-8',
    maxAgeSeconds = 300,
  ) {
    this.body = Buffer.from(typeof content === 'string' ? content : JSON.stringify(content));
    this.etag = `"${createHash('sha256').update(this.body).digest('base64url').slice(0, 27)}"`;
    this.cacheControl = `public, max-age=${maxAgeSeconds}`;
  }

  send(request: Request, response: Response): void {
    response.setHeader('Content-Type', this.contentType);
    response.setHeader('Cache-Control', this.cacheControl);
    response.setHeader('ETag', this.etag);
    // Express's freshness check: a GET or HEAD whose If-None-Match names this ETag.
    if (request.fresh) {
      response.status(304).end();
      return;
    }
    response.setHeader('Content-Length', this.body.length);
    response.end(request.method === 'HEAD' ? undefined : this.body);
  }
}
