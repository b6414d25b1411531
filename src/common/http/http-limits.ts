import type { NestExpressApplication } from '@nestjs/platform-express';
import { json, urlencoded, type NextFunction, type Request, type Response } from 'express';
import type { HttpConfig } from '../../config/environment.js';
import { assertJsonDepth } from './json-depth.js';

/**
 * Bounds what one client can hold or send: open connections (so file descriptors remain for the database and the
 * storage), idle and slow connections, and how deeply a JSON or form body nests. Behind a reverse proxy these are a
 * second line; see the README's security section.
 */
export function applyHttpLimits(app: NestExpressApplication, limits: HttpConfig): void {
  const server = app.getHttpServer();
  server.maxConnections = limits.maxConnections;
  server.timeout = limits.idleTimeoutMs;
  server.headersTimeout = limits.headersTimeoutMs;
  server.keepAliveTimeout = limits.keepAliveTimeoutMs;
  server.requestTimeout = limits.requestTimeoutMs;
  // Registered before Nest's own parsers, which are then skipped: Nest adds a parser only if none of that name
  // (`jsonParser`, `urlencodedParser`) is in place. `useBodyParser` reserves `verify`, hence `use`.
  app.use(json({ verify: (_req, _res, raw) => assertJsonDepth(raw) }));
  // body-parser refuses forms nested deeper than 32 levels (`a[b][c]…`) with a 400 of its own.
  app.use(urlencoded({ extended: true }));
}

/**
 * API answers are never sniffed into another type, and never stored by a shared cache unless a route says otherwise
 * (file content and documents set their own Cache-Control).
 *
 * Nor does Express hash every answer's body into an ETag: an answer that may not be stored is never revalidated, and
 * the SHA-1 cost about 5 % of a small request's CPU. What can be cached sets its own validators: file content (its
 * checksum), the administration UI's files (serve-static).
 */
export function useSafeResponseDefaults(app: NestExpressApplication): void {
  app.set('etag', false);
  app.use((_req: Request, res: Response, next: NextFunction) => {
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Cache-Control', 'no-store');
    next();
  });
}
