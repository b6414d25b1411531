/*
 * The response contract of the e2e suites: every response an application under test sends is checked against the
 * committed openapi.json (status documented for the operation, content type, body schema), so the document and the
 * behaviour cannot drift apart. A copy of each JSON body is validated with Ajv against the response's schema: what
 * the test receives is never touched. Other bodies (file bytes) are checked for status and content type.
 *
 * OPENAPI_RESPONSE_CHECK=fail (the default) fails each test that received a violating response (test/setup-contract.ts);
 * `report` only records them (OPENAPI_RESPONSE_REPORT=<file> appends one line per violation); `off` observes
 * nothing. A request a test deliberately sends outside every contract carries the OFF_CONTRACT header with a reason.
 */
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { resolve } from 'node:path';
import { Ajv, type ValidateFunction } from 'ajv';
import ajvFormats from 'ajv-formats';

// A CommonJS module whose module.exports is the plugin itself: what an ES module's default import receives.
const addFormats = ajvFormats as unknown as typeof ajvFormats.default;

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

export type ContractCheck = (exchange: Exchange) => Violation[];

/**
 * Paths the service serves that are not part of its API: the document itself, Swagger UI, the administration UI, its
 * icon.
 */
const NOT_API = /^\/(?:api\/docs(?:-json|-yaml)?|admin|favicon\.(?:ico|svg))(?:\/|$)/;
/** Requests to operations the document does not have (unknown paths, wrong methods, refused bodies) get 4xx. */
const isClientError = (status: number) => status >= 400 && status < 500;
const MAX_JSON_BYTES = 1 << 20;

/** The parts of an OpenAPI 3.0 document the check reads. */
export interface OpenApiDocument {
  paths: Record<string, Partial<Record<Method, Operation>> & { parameters?: unknown }>;
  components?: Record<string, Record<string, unknown>>;
  [key: string]: unknown;
}
type Method = 'get' | 'put' | 'post' | 'delete' | 'options' | 'head' | 'patch' | 'trace';
interface Operation {
  responses?: Record<string, ResponseObject | { $ref: string }>;
}
interface ResponseObject {
  content?: Record<string, { schema?: unknown }>;
}

/** One path template of the document, as a pattern; the more literal segments, the earlier it is tried. */
interface Route {
  template: string;
  pattern: RegExp;
  literals: number;
}

/** The document's path templates of each method, most literal first (`/files/uploads/{id}` before `/files/{id}`). */
function routesOf(document: OpenApiDocument): Map<string, Route[]> {
  const routes = new Map<string, Route[]>();
  for (const [template, item] of Object.entries(document.paths)) {
    const segments = template.split('/');
    // As Express routes: letters in any case, and a trailing slash allowed.
    const pattern = new RegExp(
      `^${segments.map((s) => (/^\{[^}]+\}$/.test(s) ? '[^/]+' : s.replace(/[.*+?^$()|[\]\\]/g, '\\$&'))).join('/')}/?$`,
      'i',
    );
    const literals = segments.filter((s) => !s.startsWith('{')).length;
    for (const method of Object.keys(item)) {
      if (method === 'parameters') continue;
      const list = routes.get(method.toUpperCase()) ?? [];
      list.push({ template, pattern, literals });
      routes.set(method.toUpperCase(), list);
    }
  }
  for (const list of routes.values()) list.sort((a, b) => b.literals - a.literals);
  return routes;
}

/** A JSON pointer into the document, as the fragment of a reference (`~1` for `/`, then percent-encoded). */
const pointer = (...keys: string[]): string =>
  keys.map((key) => `/${encodeURIComponent(key.replace(/~/g, '~0').replace(/\//g, '~1'))}`).join('');

/**
 * The check against one document: its own path matching, and bodies validated by Ajv against the response's schema,
 * each schema compiled the first time a response needs it (with the components it refers to), so a suite pays only
 * for the operations it calls. OpenAPI 3.0's `nullable` is Ajv's own keyword; its other keywords are ignored.
 */
export function contractCheck(document: OpenApiDocument): ContractCheck {
  const routes = routesOf(document);
  const ajv = new Ajv({ allErrors: true, strict: false, validateSchema: false, discriminator: false });
  addFormats(ajv, ['date-time', 'uri']);
  for (const format of ['binary', 'password']) ajv.addFormat(format, true);
  const DOCUMENT = 'openapi.json';
  ajv.addSchema(document, DOCUMENT);
  const validators = new Map<string, ValidateFunction>();
  const validatorAt = (ref: string): ValidateFunction => {
    const known = validators.get(ref) ?? ajv.compile({ $ref: `${DOCUMENT}#${ref}` });
    validators.set(ref, known);
    return known;
  };
  /** The response object, following a reference to the document's components. */
  const resolveRef = (node: unknown): unknown => {
    const ref = (node as { $ref?: string } | undefined)?.$ref;
    if (!ref) return node;
    const path = ref.slice(2).split('/');
    return resolveRef(path.reduce<unknown>((parent, key) => (parent as Record<string, unknown>)[key], document));
  };
  /** The operation of this method whose template the path matches, or a problem with the path itself. */
  const matching = (method: string, path: string): { template?: string; problem?: string } => {
    const template = routes.get(method)?.find((route) => route.pattern.test(path))?.template;
    if (!template) return {};
    try {
      path.split('/').forEach((segment) => decodeURIComponent(segment));
    } catch {
      return { template, problem: `the path is not valid percent-encoding: ${path}` };
    }
    return { template };
  };

  return (exchange) => {
    const { method, url, status } = exchange;
    const fullPath = url.split('?')[0];
    if (NOT_API.test(fullPath)) return [];
    // Hostile requests have paths of thousands of characters.
    const path = fullPath.length > 120 ? `${fullPath.slice(0, 100)}…` : fullPath;
    const violation = (operation?: string) => (message: string) => ({ method, path, status, operation, message });
    // A HEAD request is answered by the GET operation, without the body, unless HEAD has an operation of its own
    // (a resumable upload's offset).
    const asGet = method === 'HEAD' && !matching(method, fullPath).template ? 'GET' : method;
    const { template, problem } = matching(asGet, fullPath);
    if (!template || problem) {
      if (isClientError(status)) return [];
      return [violation()(problem ?? 'operation not in the document')];
    }
    const found = violation(`${asGet} ${template}`);
    const key = asGet.toLowerCase() as Method;
    const responses = document.paths[template][key]?.responses ?? {};
    const statusKey = [String(status), `${String(status)[0]}XX`, 'default'].find((k) => k in responses);
    const response = statusKey ? (resolveRef(responses[statusKey]) as ResponseObject) : undefined;
    if (!response) {
      return [found(`status ${status} not documented (documented: ${Object.keys(responses).join(', ')})`)];
    }
    const mediaTypes = Object.keys(response.content ?? {});
    const contentIssue = contentProblem(exchange, mediaTypes);
    if (contentIssue) return [found(contentIssue)];
    const mediaType = exchange.contentType && matchingMediaType(exchange.contentType, mediaTypes);
    if (!exchange.json || method === 'HEAD' || !mediaType || !isJson(mediaType)) return [];
    if (!response.content?.[mediaType]?.schema) return [];
    let body: unknown;
    try {
      body = JSON.parse(exchange.json.toString('utf8'));
    } catch {
      return [found(`body is not JSON although its content type is ${exchange.contentType}`)];
    }
    // Where the response is a reference, its schema is read there: a schema is compiled once, whichever uses it.
    const responseRef = (responses[statusKey!] as { $ref?: string }).$ref;
    const at = responseRef
      ? `${responseRef.slice(1)}${pointer('content', mediaType, 'schema')}`
      : pointer('paths', template, key, 'responses', statusKey!, 'content', mediaType, 'schema');
    const validate = validatorAt(at);
    if (validate(body)) return [];
    return (validate.errors ?? []).map((error) => {
      // A missing property is named in the path, as where it would be.
      const missing =
        error.keyword === 'required' ? `/${(error.params as { missingProperty: string }).missingProperty}` : '';
      return found(`body ${`${error.instancePath}${missing}` || '/'}: ${error.message ?? error.keyword}`);
    });
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
/** Violation logs of service processes (see openapi-contract.preload.ts), with how much of each was read. */
const processLogs = new Map<string, number>();

/** The check against the committed openapi.json; a check that cannot run is a violation too. */
export function checkAgainstCommittedDocument(exchange: Exchange): Violation[] {
  try {
    committedCheck ??= contractCheck(
      JSON.parse(readFileSync(resolve(process.cwd(), 'openapi.json'), 'utf8')) as OpenApiDocument,
    );
    return committedCheck(exchange);
  } catch (error) {
    const { method, url, status } = exchange;
    return [{ method, path: url.split('?')[0], status, message: `the check failed: ${String(error)}` }];
  }
}

/**
 * Checks every response `server` sends, against the committed openapi.json or, for an application other than the
 * service, against its own document. Its listener is prepended, so it runs before Express and Nest and sees even the
 * responses of body parsers and unknown routes. Does nothing when OPENAPI_RESPONSE_CHECK=off.
 */
export function observeServer(server: Server, document?: OpenApiDocument): void {
  if (checkMode() === 'off') return;
  const check = document ? contractCheck(document) : checkAgainstCommittedDocument;
  server.prependListener('request', (req: IncomingMessage, res: ServerResponse) =>
    observe(req, res, (exchange) => violations.push(...check(exchange))),
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

/** Collects, at every takeViolations, what a service process appended to `file` (JSON lines). */
export function readViolationLog(file: string): void {
  processLogs.set(file, processLogs.get(file) ?? 0);
}

/** Appends violations to `file` as JSON lines, for readViolationLog in the test process. */
export function appendViolationLog(file: string, found: Violation[]): void {
  if (found.length > 0) appendFileSync(file, found.map((v) => `${JSON.stringify(v)}\n`).join(''));
}

/** The violations recorded so far (each response is checked as it ends); clears the list. */
export function takeViolations(): Violation[] {
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
