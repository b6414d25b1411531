import { pino, stdSerializers, type DestinationStream, type Logger } from 'pino';
import type { AppConfig } from '../../config/environment.js';
import { chooseLogFormat, prettyStream } from './log-output.js';

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** A request id a caller may choose (X-Request-Id): 1 to 128 letters, digits, `.`, `_`, `:` or `-`. */
export function isSaneRequestId(value: unknown): value is string {
  return typeof value === 'string' && REQUEST_ID.test(value);
}

/**
 * Parameters whose values are credentials wherever they appear (query strings, the token endpoint's and the admin
 * API's request and response bodies): never written to a log.
 */
const SECRET_PARAMETERS = [
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

/**
 * The request headers a request line shows at debug level, when sent: what describes the client and the body, never
 * a credential. A list of what to show rather than of what to hide, so that a header carrying a secret the service
 * does not know of (`X-Api-Key`, a proxy's session header) cannot reach the log.
 */
const LOGGED_REQUEST_HEADERS = [
  'host',
  'user-agent',
  'content-type',
  'content-length',
  'accept',
  'origin',
  'referer',
  'x-forwarded-for',
] as const;

/** The response headers a request line shows at debug level, when set (Set-Cookie never). */
const LOGGED_RESPONSE_HEADERS = ['content-type', 'content-length', 'location', 'retry-after'] as const;

function someHeaders(names: readonly string[], valueOf: (name: string) => unknown): Record<string, unknown> {
  const shown: Record<string, unknown> = {};
  for (const name of names) {
    const value = valueOf(name);
    if (value !== undefined) shown[name] = value;
  }
  return shown;
}

export interface LoggedRequest {
  id?: unknown;
  method?: string;
  originalUrl?: string;
  url?: string;
  headers?: Record<string, unknown>;
  socket?: { remoteAddress?: string; remotePort?: number };
  /** The principal the access guard proved (see Principal). */
  user?: { subject?: string };
}

export interface LoggedResponse {
  statusCode?: number;
  headersSent?: boolean;
  writableFinished?: boolean;
  getHeader?: (name: string) => unknown;
}

function loggedUrl(req: LoggedRequest): string | undefined {
  const url = req.originalUrl ?? req.url;
  return typeof url === 'string' ? redactUrl(url) : undefined;
}

/**
 * What a request's lines hold: its id, method and URL, and at debug level the headers of
 * {@link LOGGED_REQUEST_HEADERS} and the peer's address. Built from named fields only, so nothing else the request
 * carries (its body, its parsed query, its other headers) can reach the log: the URL's credential parameters are
 * replaced. The query string stays, for what it says about the request (a page, a filter, a variant).
 */
function requestSerializer(detailed: boolean) {
  return (req: LoggedRequest) => {
    const line = { id: req.id, method: req.method, url: loggedUrl(req) };
    if (!detailed) return line;
    const headers = req.headers;
    return {
      ...line,
      headers: headers && someHeaders(LOGGED_REQUEST_HEADERS, (name) => headers[name]),
      remoteAddress: req.socket?.remoteAddress,
      remotePort: req.socket?.remotePort,
    };
  };
}

/** A response's status (null when none was sent), and at debug level some headers; never its body. */
function responseSerializer(detailed: boolean) {
  return (res: LoggedResponse) => {
    const statusCode = res.headersSent === false ? null : res.statusCode;
    if (!detailed) return { statusCode };
    return {
      statusCode,
      headers: res.getHeader && someHeaders(LOGGED_RESPONSE_HEADERS, (name) => res.getHeader!(name)),
    };
  };
}

/** The request line's message, e.g. `GET /products?limit=5 200 12ms`, readable without its fields. */
export function requestLine(
  req: LoggedRequest,
  res: LoggedResponse,
  responseTime: number,
  url = loggedUrl(req),
): string {
  const status = !res.headersSent
    ? 'no response'
    : res.writableFinished === false
      ? `${res.statusCode} aborted`
      : res.statusCode;
  return `${req.method} ${url} ${status} ${responseTime}ms`;
}

/** The request line's fields besides the request and the response. */
export interface RequestLineFields {
  responseTime: number;
  /** The principal, once the access guard knew it. */
  principal?: string;
  /** The problem type of an error answer (which of the 4xx it was, without its detail, which may quote the request). */
  problem?: string;
}

/**
 * The request line as pino writes it in JSON at info level and above (the serializers' fields, then `fields`, then the
 * message), built by hand: about a quarter of what pino's generic serialization costs, on every request.
 * `bindings`: pino's own (`,"pid":…,"hostname":…`). The unit spec holds it to pino's output.
 */
export function requestLineJson(
  level: number,
  bindings: string,
  req: LoggedRequest,
  res: LoggedResponse,
  fields: RequestLineFields,
): string {
  const url = loggedUrl(req);
  const statusCode = res.headersSent === false ? null : res.statusCode;
  let line = `{"level":${level},"time":${Date.now()}${bindings},"req":{"id":${JSON.stringify(req.id)},"method":${JSON.stringify(req.method)}`;
  if (url !== undefined) line += `,"url":${JSON.stringify(url)}`;
  line += `},"res":{"statusCode":${statusCode}},"responseTime":${fields.responseTime}`;
  if (fields.principal !== undefined) line += `,"principal":${JSON.stringify(fields.principal)}`;
  if (fields.problem !== undefined) line += `,"problem":${JSON.stringify(fields.problem)}`;
  return `${line},"msg":${JSON.stringify(requestLine(req, res, fields.responseTime, url))}}\n`;
}

/** A body logged on purpose (`logger.info({ body })`): its credential parameters are replaced. */
function bodySerializer(body: unknown): unknown {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return body;
  const copy: Record<string, unknown> = { ...(body as Record<string, unknown>) };
  for (const name of SECRET_PARAMETERS) if (name in copy) copy[name] = '[Redacted]';
  return copy;
}

/**
 * An error as pino writes it (message, stack, its own properties), without the values a failed query was given:
 * TypeORM's QueryFailedError carries them as `parameters`, and they can be anything a client sent or a secret the
 * service stored (a sealed webhook secret).
 */
function errorSerializer(error: unknown): unknown {
  const serialized = stdSerializers.err(error as Error) as unknown;
  if (typeof serialized === 'object' && serialized !== null && 'parameters' in serialized) {
    delete (serialized as { parameters?: unknown }).parameters;
  }
  return serialized;
}

/**
 * The service's logger: JSON or pretty lines (LOG_FORMAT, else after stdout: see chooseLogFormat) at LOG_LEVEL.
 * `destination`: where the lines go instead of stdout (tests).
 *
 * Credentials are kept out by serializers that copy named fields, not by redaction paths: pino applies redaction to
 * every line, which cost about a tenth of a small request's CPU.
 */
export function createLogger(
  config: Pick<AppConfig, 'logLevel' | 'logFormat'>,
  stdoutIsTerminal = process.stdout.isTTY === true,
  destination?: DestinationStream,
): Logger {
  const detailed = config.logLevel === 'debug' || config.logLevel === 'trace';
  const options = {
    level: config.logLevel,
    serializers: {
      req: requestSerializer(detailed),
      res: responseSerializer(detailed),
      body: bodySerializer,
      err: errorSerializer,
    },
  };
  if (destination) return pino(options, destination);
  const pretty = chooseLogFormat(config.logFormat, stdoutIsTerminal) === 'pretty';
  return pretty ? pino(options, prettyStream()) : pino(options);
}
