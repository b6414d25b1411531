import type { NestExpressApplication } from '@nestjs/platform-express';
import { STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { HttpConfig } from '../../config/environment.js';
import { problem, PROBLEM_CONTENT_TYPE } from '@file-fields/nest';
import { nulError } from './json-depth.js';

/**
 * Bounds what one client can hold: open connections, in all and per address (so file descriptors remain for the
 * database and the storage), idle and slow connections. Each request's own bounds (a slow body, U+0000 in the URL)
 * are steps of the entrance (see entrance.ts). JSON and form bodies are read after authentication
 * (BodyParsingGuard), with their depth and content checked. Behind a reverse proxy these are a second line; see
 * docs/security.md.
 */
export function applyHttpLimits(app: NestExpressApplication, limits: HttpConfig): void {
  const server = app.getHttpServer();
  server.maxConnections = limits.maxConnections;
  server.timeout = limits.idleTimeoutMs;
  server.headersTimeout = limits.headersTimeoutMs;
  server.keepAliveTimeout = limits.keepAliveTimeoutMs;
  server.requestTimeout = limits.requestTimeoutMs;
  const express = app.getHttpAdapter().getInstance() as { get(name: string): unknown };
  capConnectionsPerAddress(server, limits.maxConnectionsPerAddress, (address) => {
    // Express's compiled TRUST_PROXY: a proxy's connections carry many clients, and its own limits apply.
    const trusted = express.get('trust proxy fn') as ((address: string, hop: number) => boolean) | undefined;
    return trusted?.(address, 0) === true;
  });
  answerParserRefusals(server);
}

/**
 * What Node.js refuses before a request reaches the application (a header too large, a character no header may hold,
 * an Expect it does not know) is answered with a problem document too, where Node.js would send a bare status line.
 */
function answerParserRefusals(server: Server): void {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    // Node.js answers only while nothing of a response was written; a reset connection gets no answer either.
    if (error.code === 'ECONNRESET' || !socket.writable || socket.bytesWritten > 0) {
      socket.destroy();
      return;
    }
    const status = error.code === 'HPE_HEADER_OVERFLOW' ? 431 : error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
    const detail =
      status === 431
        ? 'The request line and headers are too large.'
        : status === 408
          ? 'The request did not arrive in time.'
          : 'The request is not valid HTTP (a header or the request line holds a character HTTP does not allow).';
    const body = JSON.stringify(problem(status, detail));
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: ${PROBLEM_CONTENT_TYPE}\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
  server.on('checkExpectation', (_req: IncomingMessage, res: ServerResponse) => {
    res.writeHead(417, { 'Content-Type': PROBLEM_CONTENT_TYPE, Connection: 'close' });
    res.end(JSON.stringify(problem(417, 'The only expectation the service meets is Expect: 100-continue.')));
  });
}

/** U+0000 in the URL, refused: a NUL reaches a path or a query only percent-encoded (Node refuses a raw one). */
export function nulInUrl(req: IncomingMessage): Error | undefined {
  return req.url?.includes('%00') ? nulError() : undefined;
}

/** Closes a connection at once when its address already has `cap` open, unless `exempt` says otherwise. */
function capConnectionsPerAddress(
  server: { on(event: 'connection', listener: (socket: Socket) => void): void },
  cap: number,
  exempt: (address: string) => boolean,
): void {
  const open = new Map<string, number>();
  server.on('connection', (socket) => {
    const address = socket.remoteAddress;
    if (address === undefined || exempt(address)) return;
    const count = (open.get(address) ?? 0) + 1;
    if (count > cap) {
      socket.destroy();
      return;
    }
    open.set(address, count);
    socket.once('close', () => {
      const left = open.get(address)! - 1;
      if (left === 0) open.delete(address);
      else open.set(address, left);
    });
  });
}

/** The bodies that carry file bytes: multipart uploads, and resumable uploads' parts (tus, the IETF draft). */
const UPLOAD_BODY = /^(multipart\/|application\/(offset\+octet-stream|partial-upload)\b)/i;

/**
 * A request body must arrive in time: a JSON or form body (anything but an upload's bytes)
 * within `timeoutMs` of the head, an upload within HTTP_REQUEST_TIMEOUT. Once the answer is sent, what is left of
 * a body, which Node.js would otherwise read and discard at the client's pace, gets `timeoutMs` more. Past its
 * deadline the connection is closed.
 */
export function boundBody(timeoutMs: number) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    const headers = req.headers;
    if (headers['content-length'] === undefined && headers['transfer-encoding'] === undefined) return;
    // The socket is gone once the connection closed by itself before the deadline.
    const expire = () => {
      if (!req.complete) req.socket?.destroy();
    };
    // An IETF resumable upload's creation carries a file's bytes in whatever type the file has.
    const upload = UPLOAD_BODY.test(headers['content-type'] ?? '') || headers['upload-complete'] !== undefined;
    let timer = upload ? undefined : setTimeout(expire, timeoutMs).unref();
    res.once('close', () => {
      if (req.complete) clearTimeout(timer);
      else timer ??= setTimeout(expire, timeoutMs).unref();
    });
  };
}

/**
 * API answers are never sniffed into another type, and never stored by a shared cache unless a route says otherwise
 * (file content and documents set their own Cache-Control): set on every response by the entrance.
 *
 * Nor does Express hash every answer's body into an ETag: an answer that may not be stored is never revalidated, and
 * the SHA-1 cost about 5 % of a small request's CPU. What can be cached sets its own validators: file content (its
 * checksum), constant documents (ConstantDocument), the administration UI's files (serve-static).
 */
export function setSafeResponseDefaults(res: ServerResponse): void {
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Cache-Control', 'no-store');
}

/** See setSafeResponseDefaults. */
export function disableBodyEtags(app: NestExpressApplication): void {
  app.set('etag', false);
}
