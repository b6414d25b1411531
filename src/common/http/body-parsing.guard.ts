import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { json, urlencoded, type NextFunction, type Request, type Response } from 'express';
import { assertJsonBody, nulError } from './json-depth.js';

type Parser = (req: Request, res: Response, next: NextFunction) => void;

const parsers: Parser[] = [
  json({ verify: (_req, _res, raw) => assertJsonBody(raw) }),
  // body-parser refuses forms nested deeper than 32 levels (`a[b][c]…`) with a 400 of its own. U+0000 comes raw or
  // percent-encoded.
  urlencoded({
    extended: true,
    verify: (_req, _res, raw) => {
      if (raw.includes(0) || raw.includes('%00')) throw nulError();
    },
  }),
];

/**
 * Reads a JSON or form body into `req.body`, after the access guard: a client that may not call a route is answered
 * before any byte of its body is read, instead of holding the connection while the body drips in. Registered as the
 * last global guard, and the application is created without Nest's own body parsers. Errors are body-parser's (400,
 * 413, 415, with `expose`), rendered as problem details, or RFC 6749 errors at the token endpoint.
 */
@Injectable()
export class BodyParsingGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean | Promise<boolean> {
    if (context.getType() !== 'http') return true;
    const http = context.switchToHttp();
    const req = http.getRequest<Request>();
    const headers = req.headers;
    if (headers['content-length'] === undefined && headers['transfer-encoding'] === undefined) return true;
    // An IETF resumable upload's creation: the body is a file's bytes, whatever its type (a JSON file is one too).
    if (headers['upload-complete'] !== undefined) return true;
    return read(req, http.getResponse<Response>());
  }
}

/** Runs the parser that takes the body's type, if any. */
async function read(req: Request, res: Response): Promise<true> {
  for (const parse of parsers) {
    await new Promise<void>((resolve, reject) =>
      parse(req, res, (error?: unknown) => (error instanceof Error ? reject(error) : resolve())),
    );
    if (req.body !== undefined) break;
  }
  return true;
}
