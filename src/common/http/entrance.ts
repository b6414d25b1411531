import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { RequestLog } from '../logging/request-log.js';
import { boundBody, nulInUrl, setSafeResponseDefaults } from './http-limits.js';

/**
 * What every request goes through before it is routed, in one Express layer: its id and log line, the API's
 * response defaults, the deadline of its body, and the refusal of U+0000 in its URL; the rest of its handling runs
 * as that request (see RequestLog.within). Anything only some paths need (the icon, /admin, /api/docs) is a route of
 * its own.
 */
export function entrance(requestLog: RequestLog, bodyTimeoutMs: number): RequestHandler {
  const bound = boundBody(bodyTimeoutMs);
  return (req: Request, res: Response, next: NextFunction) => {
    requestLog.begin(req, res);
    setSafeResponseDefaults(res);
    bound(req, res);
    const refused = nulInUrl(req);
    if (refused) requestLog.within(req, () => next(refused));
    else requestLog.within(req, next);
  };
}
