import type { LoggerService } from '@nestjs/common';
import { createRequire } from 'node:module';
import type { DestinationStream } from 'pino';
import type { PrettyOptions } from 'pino-pretty';
import type { AppConfig, LogFormat } from '../../config/environment.js';

/** LOG_FORMAT when set; otherwise pretty for a person at a terminal, JSON for a file or a log collector. */
export function chooseLogFormat(setting: LogFormat | undefined, stdoutIsTerminal: boolean): LogFormat {
  return setting ?? (stdoutIsTerminal ? 'pretty' : 'json');
}

/**
 * A pretty line's text: `[context] message`, then the principal and the request it belongs to. The request line's
 * message already says the method, path, status and duration (see requestLine).
 */
export function prettyMessage(log: Record<string, unknown>, messageKey: string): string {
  const context = typeof log.context === 'string' ? `[${log.context}] ` : '';
  const principal = typeof log.principal === 'string' ? ` ${log.principal}` : '';
  // As the request serializer writes it (logging.ts).
  const req = log.req as { id?: string; method?: string; url?: string } | undefined;
  let request = '';
  if (req?.id !== undefined) {
    const isRequestLine = 'responseTime' in log;
    request = isRequestLine ? ` (request ${req.id})` : ` (${req.method} ${req.url}, request ${req.id})`;
  }
  const message = log[messageKey];
  return `${context}${typeof message === 'string' ? message : (JSON.stringify(message) ?? '')}${principal}${request}`;
}

/** Lines for a person: the time of day, the level, the message; what the message says is not repeated below it. */
export function prettyStream(destination: number | NodeJS.WritableStream = 1): DestinationStream {
  // Loaded for pretty lines only: a service logging JSON never loads it.
  const pretty = createRequire(import.meta.url)('pino-pretty') as (options: PrettyOptions) => DestinationStream;
  return pretty({
    destination,
    // Written before the call returns: the line that says the service stopped comes just before it exits.
    sync: true,
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'pid,hostname,context,req,res,responseTime,principal',
    messageFormat: prettyMessage,
  });
}

/** The contexts in which Nest narrates its own start: each module loaded, each route mapped, one line apiece. */
const FRAMEWORK_NARRATION = new Set([
  'NestFactory',
  'InstanceLoader',
  'RoutesResolver',
  'RouterExplorer',
  'NestApplication',
]);

/**
 * The application's logger, with Nest's start-up narration at debug level: at the default level a start shows what
 * a person acts on (address, database, storage, warnings), not a hundred lines of route mapping. Nest's warnings and
 * errors keep their level.
 */
export class FrameworkNarrationAtDebug implements LoggerService {
  constructor(private readonly inner: LoggerService) {}

  log(message: unknown, ...params: unknown[]): void {
    const context = params.at(-1);
    if (typeof context === 'string' && FRAMEWORK_NARRATION.has(context)) this.debug(message, ...params);
    else this.inner.log(message, ...params);
  }

  error(message: unknown, ...params: unknown[]): void {
    this.inner.error(message, ...params);
  }

  warn(message: unknown, ...params: unknown[]): void {
    this.inner.warn(message, ...params);
  }

  debug(message: unknown, ...params: unknown[]): void {
    this.inner.debug?.(message, ...params);
  }

  verbose(message: unknown, ...params: unknown[]): void {
    this.inner.verbose?.(message, ...params);
  }

  fatal(message: unknown, ...params: unknown[]): void {
    (this.inner.fatal ?? this.inner.error).call(this.inner, message, ...params);
  }
}

/** The database a start line names: the SQLite file, or PostgreSQL's host and database without the credentials. */
export function describeDatabase(config: Pick<AppConfig, 'databaseUrl' | 'databaseSchema' | 'sqlitePath'>): string {
  if (!config.databaseUrl) return `SQLite at ${config.sqlitePath}`;
  const url = URL.parse(config.databaseUrl);
  const schema = config.databaseSchema ? `, schema ${config.databaseSchema}` : '';
  return `PostgreSQL${url ? ` at ${url.host}${url.pathname}` : ''}${schema}`;
}

/** The files feature's storage settings, as far as a start line tells them (common code does not import features). */
export type StorageDescription =
  { driver: 'local'; root: string } | { driver: 's3'; bucket: string; region: string; endpoint?: string };

/** Where the start line says file bytes go: a directory, or a bucket (never the keys). */
export function describeStorage(storage: StorageDescription): string {
  if (storage.driver === 'local') return `a directory, ${storage.root}`;
  const host = storage.endpoint && URL.parse(storage.endpoint)?.host;
  const endpoint = host ? ` at ${host}` : '';
  return `S3 bucket ${storage.bucket}${endpoint} (${storage.region})`;
}
