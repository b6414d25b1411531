/*
 * The response contract of the e2e suites: every response an application under test sends is checked against the
 * committed openapi.json (status documented for the operation, content type, body schema), so the document and the
 * behaviour cannot drift apart. Bodies are validated by express-openapi-validator, fed a copy of each JSON body on
 * stand-ins for the request and response: what the test receives is never touched. Other bodies (file bytes) are
 * checked for status and content type.
 *
 * OPENAPI_RESPONSE_CHECK=fail (the default) fails each test that received a violating response (test/setup-contract.ts);
 * `report` only records them (OPENAPI_RESPONSE_REPORT=<file> appends one line per violation); `off` observes
 * nothing. A request a test deliberately sends outside every contract carries the OFF_CONTRACT header with a reason.
 */
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { resolve } from 'node:path';
import { inspect } from 'node:util';
import { middleware as openApiValidator } from 'express-openapi-validator';
import type { OpenAPIV3 } from 'express-openapi-validator/dist/framework/types.js';

/** A request header saying why a test's request is outside every contract (e.g. a malformed request): unchecked. */
export const OFF_CONTRACT = 'x-openapi-off-contract';

export type CheckMode = 'fail' | 'report' | 'off';

export function checkMode(): CheckMode {
  const mode = process.env.OPENAPI_RESPONSE_CHECK || 'fail';
  if (mode !== 'fail' && mode !== 'report' && mode !== 'off') {
    throw new Error(`OPENAPI_RESPONSE_CHECK must be fail, report or off, not "${mode}"`);
  }
  return mode;
}

export interface Violation {
  method: string;
  /** The path as requested, without its query. */
  path: string;
  status: number;
  /** `GET /products/{id}` when the request matched a documented path. */
  operation?: string;
  message: string;
}

/** What the application sent for one request. */
export interface Exchange {
  method: string;
  url: string;
  status: number;
  contentType: string | undefined;
  bodyBytes: number;
  /** A JSON body (up to MAX_JSON_BYTES); undefined for other media types. */
  json: Buffer | undefined;
  /**
   * A resumable upload's creation (tus or the IETF draft, told apart from a multipart upload by its headers). Its
   * 201 without a body is described in the operation's text: a document cannot tell answers apart by request header.
   */
  resumableCreation?: boolean;
}

export type ContractCheck = (exchange: Exchange) => Promise<Violation[]>;

/**
 * Paths the service serves that are not part of its API: the document itself, Swagger UI, the administration UI, its
 * icon.
 */
const NOT_API = /^\/(?:api\/docs(?:-json|-yaml)?|admin|favicon\.(?:ico|svg))(?:\/|$)/;
/** Requests to operations the document does not have (unknown paths, wrong methods, refused bodies) get 4xx. */
const isClientError = (status: number) => status >= 400 && status < 500;
const MAX_JSON_BYTES = 1 << 20;

/** Stand-ins for Express's request and response: the validator's middlewares only ever see these. */
interface StandInRequest {
  method: string;
  url: string;
  originalUrl: string;
  baseUrl: string;
  path: string;
  headers: Record<string, string>;
  params: Record<string, string>;
  query: Record<string, string>;
  app: { param(): void; enabled(): boolean };
  openapi?: { openApiRoute: string; schema?: OpenAPIV3.OperationObject };
  problems: string[];
}
interface StandInResponse {
  statusCode: number;
  headersSent: false;
  mediaType: string | undefined;
  getHeaders(): Record<string, string | undefined>;
  json(body: unknown): unknown;
}
type Middleware = (req: StandInRequest, res: StandInResponse, next: (err?: unknown) => void) => unknown;

/**
 * The document with only the operations of one method. express-openapi-validator takes the first path template that
 * matches a request whatever its method (`/files/{attachmentType}/{attachmentId}/{fieldName}`, POST, before
 * `/files/{id}/variants/{name}`, GET), where Express routes by method too: each method gets its own validator.
 */
function operationsOf(document: OpenAPIV3.DocumentV3, method: string): OpenAPIV3.DocumentV3 {
  const key = method.toLowerCase() as 'get' | 'put' | 'post' | 'delete' | 'options' | 'head' | 'patch' | 'trace';
  const paths = Object.entries(document.paths).flatMap(([path, item]) =>
    item?.[key] ? [[path, { parameters: item.parameters, [key]: item[key] }] as const] : [],
  );
  return { ...document, paths: Object.fromEntries(paths) };
}

function validatorOf(document: OpenAPIV3.DocumentV3): Middleware[] {
  return openApiValidator({
    // Paths are relative to the application's root whatever `servers` says.
    apiSpec: { ...document, servers: [{ url: '/' }] },
    validateRequests: false,
    validateSecurity: false,
    fileUploader: false,
    ignoreUndocumented: true,
    validateResponses: {
      allErrors: true,
      onError: (err, _body, req) => {
        const items = err.errors?.length ? err.errors : [{ path: '', message: err.message }];
        (req as unknown as StandInRequest).problems.push(
          ...items.map((item) => `body ${item.path.replace(/^\/response/, '') || '/'}: ${item.message}`),
        );
      },
    },
  }) as unknown as Middleware[];
}

/** The check against one document: express-openapi-validator matches the path and validates JSON bodies. */
export function contractCheck(document: OpenAPIV3.DocumentV3): ContractCheck {
  const validators = new Map<string, Middleware[]>();
  const middlewaresFor = (method: string): Middleware[] => {
    const known = validators.get(method) ?? validatorOf(operationsOf(document, method));
    validators.set(method, known);
    return known;
  };
  const resolveRef = (node: unknown): unknown => {
    const ref = (node as { $ref?: string } | undefined)?.$ref;
    if (!ref) return node;
    const path = ref.slice(2).split('/');
    return resolveRef(path.reduce<unknown>((parent, key) => (parent as Record<string, unknown>)[key], document));
  };

  /** Whether the document has an operation of this method for the URL. */
  const documents = async (method: string, url: string): Promise<boolean> => {
    const req = standInRequest(method, url);
    const res: StandInResponse = {
      statusCode: 200,
      headersSent: false,
      mediaType: undefined,
      getHeaders: () => ({}),
      json: (b: unknown) => b,
    };
    await runMiddlewares(middlewaresFor(method), req, res);
    return req.openapi?.schema !== undefined;
  };

  return async (exchange) => {
    const { method, url, status } = exchange;
    const fullPath = url.split('?')[0];
    if (NOT_API.test(fullPath)) return [];
    // Hostile requests have paths of thousands of characters.
    const path = fullPath.length > 120 ? `${fullPath.slice(0, 100)}…` : fullPath;
    const violation = (operation?: string) => (message: string) => ({ method, path, status, operation, message });
    // A HEAD request is answered by the GET operation, without the body, unless HEAD has an operation of its own
    // (a resumable upload's offset).
    const asGet = method === 'HEAD' && !(await documents(method, url)) ? 'GET' : method;
    // The validator installs its body hook on this stand-in's `json`, reading the media type set on it below.
    const req = standInRequest(asGet, url);
    const res: StandInResponse = {
      statusCode: status,
      headersSent: false,
      mediaType: undefined,
      getHeaders() {
        return { 'content-type': this.mediaType };
      },
      json: (body) => body,
    };
    await runMiddlewares(middlewaresFor(asGet), req, res);
    const operation = req.openapi?.schema;
    if (!operation || req.problems.length > 0) {
      if (isClientError(status)) return [];
      return req.problems.length > 0 ? req.problems.map(violation()) : [violation()('operation not in the document')];
    }
    const found = violation(`${asGet} ${req.openapi!.openApiRoute}`);
    const responses = operation.responses ?? {};
    const response = resolveRef(
      responses[String(status)] ?? responses[`${String(status)[0]}XX`] ?? responses.default,
    ) as OpenAPIV3.ResponseObject | undefined;
    if (!response) {
      return [found(`status ${status} not documented (documented: ${Object.keys(responses).join(', ')})`)];
    }
    const mediaTypes = Object.keys(response.content ?? {});
    const problem = contentProblem(exchange, mediaTypes);
    if (problem) return [found(problem)];
    const mediaType = exchange.contentType && matchingMediaType(exchange.contentType, mediaTypes);
    if (!exchange.json || method === 'HEAD' || !mediaType || !isJson(mediaType)) return [];
    if (!response.content?.[mediaType]?.schema) return [];
    res.mediaType = mediaType;
    let body: unknown;
    try {
      body = JSON.parse(exchange.json.toString('utf8'));
    } catch {
      return [found(`body is not JSON although its content type is ${exchange.contentType}`)];
    }
    // The hook validates the copy and reports through onError (express-openapi-validator leaves 5xx bodies alone).
    res.json(body);
    return req.problems.map(found);
  };
}

/** Whether the response has a body where the document says so, of a documented media type. */
function contentProblem(exchange: Exchange, mediaTypes: string[]): string | undefined {
  const { method, status, contentType, bodyBytes } = exchange;
  // A HEAD response carries the headers of the GET response without its body.
  const hasBody = method === 'HEAD' ? contentType !== undefined : bodyBytes > 0;
  if (status === 304 || (exchange.resumableCreation && status === 201 && !hasBody)) return undefined;
  if (!hasBody) return mediaTypes.length > 0 ? `empty body, documented: ${mediaTypes.join(', ')}` : undefined;
  if (mediaTypes.length === 0) return `body of type ${contentType ?? '(none)'} where the document describes none`;
  if (contentType && matchingMediaType(contentType, mediaTypes)) return undefined;
  return `content type ${contentType ?? '(none)'} not documented (documented: ${mediaTypes.join(', ')})`;
}

/** Runs the validator's middlewares in order, as Express would; an error one passes on is a problem. */
async function runMiddlewares(middlewares: Middleware[], req: StandInRequest, res: StandInResponse): Promise<void> {
  for (const middleware of middlewares) {
    const error = await new Promise<unknown>((next) => {
      Promise.resolve(middleware(req, res, next)).catch(next);
    });
    if (error) {
      req.problems.push(`the validator failed: ${error instanceof Error ? error.message : inspect(error)}`);
      return;
    }
  }
}

function standInRequest(method: string, url: string): StandInRequest {
  return {
    method,
    url,
    originalUrl: url,
    baseUrl: '',
    path: url.split('?')[0],
    headers: {},
    params: {},
    query: {},
    app: { param: () => undefined, enabled: () => false },
    problems: [],
  };
}

function isJson(contentType: string | undefined): boolean {
  return /^application\/(?:[\w.-]+\+)?json\s*(?:;|$)/i.test(contentType ?? '');
}

/** The documented media type a Content-Type falls under (parameters ignored; `image/*` and `*\/*` match). */
function matchingMediaType(contentType: string, documented: string[]): string | undefined {
  const actual = contentType.split(';')[0].trim().toLowerCase();
  const wildcard = `${actual.split('/')[0]}/*`;
  return (
    documented.find((m) => m.toLowerCase() === actual) ??
    documented.find((m) => m.toLowerCase() === wildcard) ??
    documented.find((m) => m === '*/*')
  );
}

// ---- Observing a server ----------------------------------------------------------------------------------------

let committedCheck: ContractCheck | undefined;
const violations: Violation[] = [];
const checks = new Set<Promise<void>>();
/** Violation logs of service processes (see openapi-contract.preload.ts), with how much of each was read. */
const processLogs = new Map<string, number>();

/** The check against the committed openapi.json; a check that cannot run is a violation too. */
export async function checkAgainstCommittedDocument(exchange: Exchange): Promise<Violation[]> {
  try {
    committedCheck ??= contractCheck(
      JSON.parse(readFileSync(resolve(process.cwd(), 'openapi.json'), 'utf8')) as OpenAPIV3.DocumentV3,
    );
    return await committedCheck(exchange);
  } catch (error) {
    const { method, url, status } = exchange;
    return [{ method, path: url.split('?')[0], status, message: `the check failed: ${String(error)}` }];
  }
}

/**
 * Checks every response `server` sends. Its listener is prepended, so it runs before Express and Nest and sees
 * even the responses of body parsers and unknown routes. Does nothing when OPENAPI_RESPONSE_CHECK=off.
 */
export function observeServer(server: Server): void {
  if (checkMode() === 'off') return;
  server.prependListener('request', (req: IncomingMessage, res: ServerResponse) =>
    observe(req, res, (exchange) => record(checkAgainstCommittedDocument(exchange))),
  );
}

/**
 * Wraps `res.write`/`res.end` to count what is sent and copy JSON bodies, and hands the exchange over when `end` is
 * called, that is before the client can have the whole response. Calls the wrapped methods unchanged.
 */
export function observe(req: IncomingMessage, res: ServerResponse, onEnd: (exchange: Exchange) => void): void {
  if (req.headers[OFF_CONTRACT]) return;
  const method = req.method ?? 'GET';
  const url = req.url ?? '/';
  const chunks: Buffer[] = [];
  let bodyBytes = 0;
  let ended = false;
  const copy = (chunk: unknown, encoding: unknown) => {
    if (chunk === undefined || chunk === null || typeof chunk === 'function') return;
    const bytes =
      typeof chunk === 'string'
        ? Buffer.from(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8')
        : Buffer.from(chunk as Uint8Array);
    bodyBytes += bytes.length;
    if (isJson(contentType()) && bodyBytes <= MAX_JSON_BYTES) chunks.push(bytes);
  };
  // Headers given to writeHead itself are not visible through getHeader.
  let headContentType: string | undefined;
  const contentType = () => headContentType ?? (res.getHeader('content-type') as string | undefined)?.toString();
  const { writeHead, write, end } = res;
  res.writeHead = function (this: ServerResponse, status: number, ...rest: unknown[]) {
    const headers = rest.find((arg) => typeof arg === 'object' && arg !== null) ?? {};
    const entries = Array.isArray(headers) ? pairs(headers) : Object.entries(headers);
    const given = entries.find(([name]) => String(name).toLowerCase() === 'content-type')?.[1];
    if (given !== undefined) headContentType = String(given);
    return (writeHead as (...args: unknown[]) => ServerResponse).call(this, status, ...rest);
  };
  res.write = function (this: ServerResponse, chunk: unknown, ...rest: unknown[]) {
    copy(chunk, rest[0]);
    return (write as (...args: unknown[]) => boolean).call(this, chunk, ...rest);
  } as typeof res.write;
  res.end = function (this: ServerResponse, chunk?: unknown, ...rest: unknown[]) {
    if (!ended) {
      ended = true;
      copy(chunk, rest[0]);
      const type = contentType();
      const json = isJson(type) && bodyBytes <= MAX_JSON_BYTES ? Buffer.concat(chunks) : undefined;
      const resumableCreation =
        method === 'POST' &&
        (req.headers['tus-resumable'] !== undefined || req.headers['upload-complete'] !== undefined);
      onEnd({
        method,
        url,
        status: res.statusCode,
        contentType: type,
        bodyBytes,
        json,
        ...(resumableCreation && { resumableCreation }),
      });
    }
    return (end as (...args: unknown[]) => ServerResponse).call(this, chunk, ...rest);
  } as typeof res.end;
}

/** `[name, value, name, value]`, as writeHead also takes headers, as pairs. */
function pairs(flat: unknown[]): Array<[unknown, unknown]> {
  return flat.flatMap((item, index) => (index % 2 === 0 ? [[item, flat[index + 1]] as [unknown, unknown]] : []));
}

function record(found: Promise<Violation[]>): void {
  const settled = found.then((list) => void violations.push(...list));
  checks.add(settled);
  void settled.finally(() => checks.delete(settled));
}

/** Collects, at every takeViolations, what a service process appended to `file` (JSON lines). */
export function readViolationLog(file: string): void {
  processLogs.set(file, processLogs.get(file) ?? 0);
}

/** Appends violations to `file` as JSON lines, for readViolationLog in the test process. */
export function appendViolationLog(file: string, found: Violation[]): void {
  if (found.length > 0) appendFileSync(file, found.map((v) => `${JSON.stringify(v)}\n`).join(''));
}

/** The violations recorded so far, once the checks under way have finished; clears the list. */
export async function takeViolations(): Promise<Violation[]> {
  while (checks.size > 0) await Promise.all(checks);
  for (const [file, offset] of processLogs) {
    if (!existsSync(file)) continue;
    const text = readFileSync(file, 'utf8');
    const complete = text.lastIndexOf('\n') + 1;
    if (complete <= offset) continue;
    const lines = text.slice(offset, complete).trim().split('\n');
    violations.push(...lines.map((line) => JSON.parse(line) as Violation));
    processLogs.set(file, complete);
  }
  return violations.splice(0);
}

/** One line per violation: `GET /products/7 -> 200 (GET /products/{id}): body /description: must be string`. */
export function formatViolation(v: Violation): string {
  const operation = v.operation && v.operation !== `${v.method} ${v.path}` ? ` (${v.operation})` : '';
  return `${v.method} ${v.path} -> ${v.status}${operation}: ${v.message}`;
}
