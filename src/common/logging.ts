import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Params } from 'nestjs-pino';
import type { AppConfig } from '../config/environment.js';

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * Parameters whose values are credentials wherever they appear (query strings, the token endpoint's and the admin
 * API's request and response bodies): never written to a log.
 */
export const SECRET_PARAMETERS = [
  'access_token',
  'refresh_token',
  // The revocation endpoint's (RFC 7009): the token to revoke, a live refresh token.
  'token',
  'id_token',
  'code',
  'client_secret',
  'password',
  // PUT /api/me/password.
  'current_password',
  'new_password',
  // Admin API answers: an integration's client secret, a webhook endpoint's signing secret.
  'secret_access_key',
  'secret',
  // A signed file URL's: whoever has it reads the file until the URL expires.
  'signature',
];
const SECRET_IN_URL = new RegExp(`([?&](?:${SECRET_PARAMETERS.join('|')})=)[^&#]*`, 'gi');

/** The URL with the value of every credential parameter replaced, e.g. `?access_token=[REDACTED]`. */
export function redactUrl(url: string): string {
  return url.replace(SECRET_IN_URL, '$1[REDACTED]');
}

/** Request headers that carry credentials: never written to a log. */
const CREDENTIAL_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie']);

function withoutCredentialHeaders(
  headers: Record<string, unknown> | undefined,
  hidden: ReadonlySet<string>,
): Record<string, unknown> | undefined {
  if (!headers) return undefined;
  const kept: Record<string, unknown> = {};
  for (const name in headers) if (!hidden.has(name)) kept[name] = headers[name];
  return kept;
}

interface LoggedRequest {
  id?: unknown;
  method?: string;
  originalUrl?: string;
  url?: string;
  headers?: Record<string, unknown>;
  socket?: { remoteAddress?: string; remotePort?: number };
}

interface LoggedResponse {
  statusCode?: number;
  headersSent?: boolean;
  getHeaders?: () => Record<string, unknown>;
}

/**
 * What a request line holds. Built from named fields only, so nothing else the request carries (its body, its parsed
 * query) can reach the log: the URL's credential parameters are replaced, credential headers are left out.
 */
function requestSerializer(req: LoggedRequest) {
  const url = req.originalUrl ?? req.url;
  return {
    id: req.id,
    method: req.method,
    url: typeof url === 'string' ? redactUrl(url) : undefined,
    headers: withoutCredentialHeaders(req.headers, CREDENTIAL_HEADERS),
    remoteAddress: req.socket?.remoteAddress,
    remotePort: req.socket?.remotePort,
  };
}

const RESPONSE_CREDENTIAL_HEADERS = new Set(['set-cookie']);

/** A response's status and headers, without Set-Cookie; never its body. */
function responseSerializer(res: LoggedResponse) {
  return {
    statusCode: res.headersSent === false ? null : res.statusCode,
    headers: withoutCredentialHeaders(res.getHeaders?.(), RESPONSE_CREDENTIAL_HEADERS),
  };
}

/** A body logged on purpose (`logger.info({ body })`): its credential parameters are replaced. */
function bodySerializer(body: unknown): unknown {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return body;
  const copy: Record<string, unknown> = { ...(body as Record<string, unknown>) };
  for (const name of SECRET_PARAMETERS) if (name in copy) copy[name] = '[Redacted]';
  return copy;
}

/**
 * Structured JSON logs with one request id per request, taken from X-Request-Id when sane and echoed back.
 *
 * Credentials are kept out by serializers that copy named fields, not by redaction paths: pino applies redaction to
 * every line and every child logger (one per request), which cost about a tenth of a small request's CPU.
 */
export function loggerParams(config: AppConfig): Params {
  return {
    pinoHttp: {
      level: config.logLevel,
      genReqId: (req: IncomingMessage, res: ServerResponse) => {
        const given = req.headers['x-request-id'];
        const id = typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
        res.setHeader('X-Request-Id', id);
        return id;
      },
      // The serializers receive the request and response themselves, not pino's copies of them.
      wrapSerializers: false,
      serializers: { req: requestSerializer, res: responseSerializer, body: bodySerializer },
      customLogLevel: (_req, res, err) =>
        err || res.statusCode >= 500 ? 'error' : res.statusCode >= 400 ? 'warn' : 'info',
    },
  };
}
