import { createHash } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import type { Principal } from '@file-fields/nest';

/** The application's callers: each API key with the permissions it holds, e.g. `{ "k-1": ["book:read"] }`. */
export type ApiKeys = Record<string, string[]>;

// Keys are looked up by their digest: the lookup compares digests, which tell nothing about the key sent.
const digest = (key: string) => createHash('sha256').update(key).digest('base64url');

/**
 * The application's own authentication, whatever it is (here API keys; passport, sessions or a gateway elsewhere): it
 * sets `req.user` to `{ subject, scopes }`, the one thing @file-fields/nest reads of the caller. Requests without a
 * known key go on without one; the PermissionGuard answers 401 where a route needs a caller.
 */
export function apiKeyAuthentication(keys: ApiKeys) {
  const callers = new Map<string, Principal>(
    Object.entries(keys).map(([key, scopes], index) => [digest(key), { subject: `key:${index + 1}`, scopes }]),
  );
  return (req: Request, _res: Response, next: NextFunction): void => {
    const [scheme, key] = req.headers.authorization?.split(' ') ?? [];
    const caller = scheme?.toLowerCase() === 'bearer' && key ? callers.get(digest(key)) : undefined;
    if (caller) req.user = caller;
    next();
  };
}
