import { Strategy as BearerStrategy, type VerifyFunction } from 'passport-http-bearer';
import type { Request } from 'express';

type Verify = (token: string, done: (error: unknown, user?: unknown) => void) => void;
interface StrategyInternals {
  _verify: Verify;
  success(user: unknown): void;
  fail(status: number): void;
  error(error: unknown): void;
}

/**
 * passport-http-bearer, restricted to the Authorization header: a token in the query string or the body is never
 * read (RFC 6750 §2.3 and the OAuth 2.1 rules in SPEC.md).
 */
export class HeaderBearerStrategy extends BearerStrategy<VerifyFunction> {
  override authenticate(req: Request): void {
    const self = this as unknown as StrategyInternals;
    const match = /^Bearer +([A-Za-z0-9\-._~+/]+=*)$/i.exec(req.headers.authorization ?? '');
    if (!match) return self.fail(401);
    self._verify(match[1], (error, user) => {
      if (error) return self.error(error);
      if (!user) return self.fail(401);
      self.success(user);
    });
  }
}
